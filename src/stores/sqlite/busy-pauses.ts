import { sqliteCode } from './sqlite-errors.js';

/** First and longest pause between two tries at a lock, in milliseconds (the pause doubles in between). */
const FIRST_PAUSE_MS = 1;
const LONGEST_PAUSE_MS = 16;

/** Whether SQLite failed because a lock is held elsewhere (`SQLITE_BUSY` and its extended codes). */
export function isBusy(error: unknown): boolean {
  return sqliteCode(error)?.startsWith('SQLITE_BUSY') ?? false;
}

/**
 * Runs `attempt` until it does not fail with `SQLITE_BUSY`, with pauses of {@link FIRST_PAUSE_MS} doubling to
 * {@link LONGEST_PAUSE_MS} that leave the event loop free, for up to `timeoutMs`; then its last failure is thrown,
 * as SQLite's own busy handler would have failed after sleeping in this thread. Used on a connection with
 * `busy_timeout = 0`: for its write lock (`ImmediateTransaction`), and for its reads, which in WAL mode take no
 * lock a writer holds but are refused while another connection recovers the WAL after a crash or holds the file in
 * exclusive locking mode. `pause` waits (a timer by default; the transaction's can be woken early);
 * `beforeRetry` runs before each new try (a closed store throws there).
 */
export async function untilNotBusy<T>(
  attempt: () => T,
  timeoutMs: number,
  options: { pause?: (ms: number) => Promise<void>; beforeRetry?: () => void } = {},
): Promise<T> {
  const pauseFor = options.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = performance.now() + timeoutMs;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      const left = deadline - performance.now();
      if (!isBusy(error) || left <= 0) throw error;
      await pauseFor(Math.min(pause, left));
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
      options.beforeRetry?.();
    }
  }
}
