import { ScratchpadError } from '../../core/errors.js';
import { toNameFragment } from '../../core/names.js';
import type { SessionScratchpad } from '../../service/scratchpad.js';
import type { WriteOptions, WriteResult } from '../../service/types.js';
import type { ContentInput } from '../../service/writing/content-input.js';

const MAX_ATTEMPTS = 1000;

/**
 * Writes offloaded results under `<tool>_<n>` names unique in the session (seed 004: `execute_command_1`). Each
 * write uses mode `create`, so an earlier entry is never overwritten: on `ENTRY_EXISTS` (another writer, a name
 * the model chose) it moves on to n + 1 (a stream too: the name is checked before its first byte is read). Tool names are untrusted and pass through `toNameFragment`.
 */
export class EntryNamer {
  readonly #session: SessionScratchpad;
  readonly #next = new Map<string, number>();

  constructor(session: SessionScratchpad) {
    this.#session = session;
  }

  /** The safe prefix for a tool's entries. */
  static fragmentOf(tool: string): string {
    return toNameFragment(tool);
  }

  /** The name the next write for `tool` will try first. */
  async peek(tool: string): Promise<string> {
    const fragment = EntryNamer.fragmentOf(tool);
    return `${fragment}_${await this.#start(fragment)}`;
  }

  /** Creates the entry under the first free `<tool>_<n>`. */
  async create(
    tool: string,
    content: ContentInput,
    options: Omit<WriteOptions, 'mode' | 'ifVersion'>,
  ): Promise<WriteResult> {
    const fragment = EntryNamer.fragmentOf(tool);
    let number = await this.#start(fragment);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++, number++) {
      try {
        const written = await this.#session.write(`${fragment}_${number}`, content, {
          ...options,
          mode: 'create',
        });
        this.#next.set(fragment, number + 1);
        return written;
      } catch (error) {
        if (!ScratchpadError.hasCode(error, 'ENTRY_EXISTS')) throw error;
      }
    }
    throw new ScratchpadError(
      'ENTRY_EXISTS',
      `No free name for "${fragment}" after ${MAX_ATTEMPTS} attempts.`,
      {
        hint: 'Delete old offloaded entries of this tool, or run gc().',
      },
    );
  }

  /** The first number to try: one past the highest `<fragment>_<n>` in the session, remembered afterwards. */
  async #start(fragment: string): Promise<number> {
    const known = this.#next.get(fragment);
    if (known !== undefined) return known;
    const pattern = new RegExp(`^${fragment.replace(/[.]/g, '\\.')}_(\\d+)$`);
    let highest = 0;
    for await (const entry of this.#session.entries({ prefix: `${fragment}_` })) {
      const match = pattern.exec(entry.name);
      if (match) highest = Math.max(highest, Number(match[1]));
    }
    this.#next.set(fragment, highest + 1);
    return highest + 1;
  }
}
