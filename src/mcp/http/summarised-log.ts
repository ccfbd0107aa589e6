/** Options for {@link createSummarisedLog}. */
export interface SummarisedLogOptions {
  /** Where lines go (stderr). */
  log: (message: string) => void;
  /** Starts every line: `scratchpad: ` (the library serves `mcp` and `proxy` alike). */
  prefix: string;
  /** What the lines are about, plural, for the summary: `2026-07-28 requests refused or failed`. */
  what: string;
  /** The first message of an interval is written in full; the others of it are counted (default 60 s). */
  intervalMs?: number;
  /** Longest message written, in characters (a hostile request can make the message long; default 300). */
  maxMessageChars?: number;
}

/** A log that a flood cannot fill: see {@link createSummarisedLog}. */
export interface SummarisedLog {
  /** Records one occurrence. */
  (message: string): void;
  /** Writes the summary of the current interval now, if anything was counted (on shutdown). */
  flush(): void;
}

/**
 * A log for events a client can cause at will (each refused request): the first of an interval is written in
 * full, the rest are counted, and one line at the end of the interval says how many there were and shows the last.
 * However many requests a client sends, this writes at most two lines per interval.
 */
export function createSummarisedLog(options: SummarisedLogOptions): SummarisedLog {
  const intervalMs = options.intervalMs ?? 60_000;
  const maxChars = options.maxMessageChars ?? 300;
  const shown = (message: string) =>
    message.length <= maxChars ? message : `${message.slice(0, maxChars)}… (${message.length} chars)`;
  let timer: NodeJS.Timeout | undefined;
  let counted = 0;
  let last = '';

  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (counted === 0) return;
    const seconds = Math.round(intervalMs / 1000);
    options.log(
      `${options.prefix}${counted} more ${options.what} within ${seconds} s of the one above, not each written (the last: ${shown(last)})`,
    );
    counted = 0;
  };

  const record = (message: string): void => {
    if (timer === undefined) {
      options.log(`${options.prefix}${shown(message)}`);
      timer = setTimeout(flush, intervalMs);
      // The summary must not keep a server that is shutting down alive.
      timer.unref();
      return;
    }
    counted++;
    last = message;
  };
  return Object.assign(record, { flush });
}
