import { createReadStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { ScratchpadError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json.js';

/** One custom entry of a session JSONL transcript, as OpenClaw's `appendCustomEntry(customType, data)` writes it. */
export interface CustomEntry {
  type: 'custom';
  customType: string;
  data: JsonValue;
  /** ISO 8601. */
  timestamp: string;
}

/** Configuration of a {@link SessionTranscript}. */
export interface SessionTranscriptConfig {
  /** The JSONL file (created with its directory on the first append). */
  path: string;
  /** Flush each append to disk before resolving (default true). */
  durable?: boolean;
  /** Clock in epoch milliseconds (tests inject one). */
  now?: () => number;
}

/**
 * A session transcript in JSON Lines: one JSON object per line, appended, never rewritten. It may be shared with a
 * host that writes its own entry types; this class only appends `custom` entries and reads them back.
 *
 * A crash mid-append leaves a truncated last line. Reads skip lines that do not parse (so every earlier entry
 * survives), and the next append starts on a fresh line so the damage does not spread to it.
 */
export class SessionTranscript {
  readonly path: string;
  readonly #durable: boolean;
  readonly #now: () => number;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(config: SessionTranscriptConfig) {
    if (typeof config.path !== 'string' || config.path.length === 0) {
      throw new ScratchpadError('INVALID_ARGUMENT', 'A session transcript needs a file path.', {
        hint: 'Pass the path of the session JSONL file, e.g. "sessions/<session-id>.jsonl".',
      });
    }
    this.path = config.path;
    this.#durable = config.durable ?? true;
    this.#now = config.now ?? Date.now;
  }

  /** Appends `{type: 'custom', customType, data, timestamp}` as one line and returns it. */
  async appendCustomEntry(customType: string, data: JsonValue): Promise<CustomEntry> {
    if (typeof customType !== 'string' || customType.length === 0) {
      throw new ScratchpadError('INVALID_ARGUMENT', 'customType must be a non-empty string.', {
        hint: 'Use a namespaced type such as "openclaw:scratchpad".',
      });
    }
    const entry: CustomEntry = {
      type: 'custom',
      customType,
      data,
      timestamp: new Date(this.#now()).toISOString(),
    };
    // Appends from this object run one at a time, so each sees the previous one's final newline.
    const appended = this.#queue.then(() => this.#appendLine(`${JSON.stringify(entry)}\n`));
    this.#queue = appended.catch(() => undefined);
    await appended;
    return entry;
  }

  /** The last custom entry of `customType`, or `undefined` when there is none (or no file yet). */
  async lastCustomEntry(customType: string): Promise<CustomEntry | undefined> {
    let last: CustomEntry | undefined;
    for await (const entry of this.customEntries(customType)) last = entry;
    return last;
  }

  /** Every readable custom entry (of `customType`, when given), in file order; unreadable lines are skipped. */
  async *customEntries(customType?: string): AsyncGenerator<CustomEntry> {
    const marker = customType === undefined ? '"custom"' : JSON.stringify(customType);
    const lines = createInterface({
      input: createReadStream(this.path, { encoding: 'utf8' }),
      crlfDelay: Infinity,
    });
    try {
      for await (const line of lines) {
        if (!line.includes(marker)) continue;
        const entry = parseCustomEntry(line);
        if (entry && (customType === undefined || entry.customType === customType)) yield entry;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    } finally {
      lines.close();
    }
  }

  async #appendLine(line: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const handle = await open(this.path, 'a+');
    try {
      const { size } = await handle.stat();
      let prefix = '';
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) prefix = '\n';
      }
      await handle.write(prefix + line);
      if (this.#durable) await handle.datasync();
    } finally {
      await handle.close();
    }
  }
}

/** Creates a {@link SessionTranscript} over a JSONL file. */
export function createSessionTranscript(config: SessionTranscriptConfig): SessionTranscript {
  return new SessionTranscript(config);
}

function parseCustomEntry(line: string): CustomEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Partial<CustomEntry>;
  if (entry.type !== 'custom' || typeof entry.customType !== 'string' || !('data' in entry)) return undefined;
  return {
    type: 'custom',
    customType: entry.customType,
    data: entry.data as JsonValue,
    timestamp: typeof entry.timestamp === 'string' ? entry.timestamp : '',
  };
}
