/**
 * How often an operation without `ifVersion` retries after losing a race with another writer. Ten, so that a
 * crowd of processes appending to one name (ten CLI appends at once) all land: with jittered exponential
 * backoff ({@link retryDelay}) the last of them waits about a second in all.
 */
export const MAX_RETRIES = 10;

/** How long a writer that lost race `attempt` (0-based) waits before trying again: full jitter, capped at 250 ms. */
export function retryDelay(attempt: number): Promise<void> {
  const ceiling = Math.min(250, 5 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}
