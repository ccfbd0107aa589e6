import type { SessionScratchpad } from '../service/session-scratchpad.js';

/**
 * Whether a session has any entry, watched: `check()` looks now and `onChange` listeners hear every flip (the
 * first entry written by anyone, the last one deleted or expired), found by polling while someone listens.
 * Seed 000's read tool follows it over MCP.
 */
export class EntryPresence {
  readonly #session: SessionScratchpad;
  readonly #pollMs: number;
  readonly #listeners = new Set<(present: boolean) => void>();
  #present: boolean | undefined;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<boolean> | undefined;

  constructor(session: SessionScratchpad, options: { pollMs?: number } = {}) {
    this.#session = session;
    this.#pollMs = options.pollMs ?? 1000;
  }

  /** True when the session has an entry now; tells the listeners when that changed. */
  check(): Promise<boolean> {
    this.#checking ??= this.#session
      .list({ limit: 1 })
      .then(({ entries }) => {
        const present = entries.length > 0;
        const changed = this.#present !== undefined && this.#present !== present;
        this.#present = present;
        if (changed) for (const listener of this.#listeners) listener(present);
        return present;
      })
      .finally(() => {
        this.#checking = undefined;
      });
    return this.#checking;
  }

  /** Calls `listener` on every change until the returned function is called. */
  onChange(listener: (present: boolean) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.check().catch(() => undefined), this.#pollMs);
      this.#timer.unref();
      void this.check().catch(() => undefined);
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0 && this.#timer) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }
}
