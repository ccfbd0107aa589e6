import { sqliteCode } from './sqlite-errors.js';

/** First and longest pause between two tries at a lock, in milliseconds (the pause doubles in between). */
export const FIRST_PAUSE_MS = 1;
export const LONGEST_PAUSE_MS = 16;

/** Whether SQLite failed because a lock is held elsewhere (`SQLITE_BUSY` and its extended codes). */
export function isBusy(error: unknown): boolean {
  return sqliteCode(error)?.startsWith('SQLITE_BUSY') ?? false;
}

/**
 * Runs `attempt` (a read of a connection with `busy_timeout = 0`) until it does not fail with `SQLITE_BUSY`, with
 * pauses of {@link FIRST_PAUSE_MS} doubling to {@link LONGEST_PAUSE_MS} that leave the event loop free, for up to
 * `timeoutMs`; then its last failure is thrown. A read in WAL mode takes no lock a writer holds, but it is refused
 * while another connection recovers the WAL after a crash or holds the file in exclusive locking mode, where
 * SQLite's own busy handler would have slept in this thread. `beforeRetry` runs before each new try (a closed
 * store throws there).
 */
export async function readWhenFree<T>(
  attempt: () => T,
  timeoutMs: number,
  beforeRetry: () => void = () => {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      const left = deadline - performance.now();
      if (!isBusy(error) || left <= 0) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
      beforeRetry();
    }
  }
}
