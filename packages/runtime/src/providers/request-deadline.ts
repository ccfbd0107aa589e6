/** How long one model request may take, retries included, when the config sets no `timeout_ms`: 120 s. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 120_000;

/** The time limit of one model request, merged with the caller's own abort signal. */
export interface RequestDeadline {
  /** Aborts when the caller aborts or the time is up. */
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** True when the request was cut by the time limit (not by the caller). */
  expired(): boolean;
}

/** Starts the deadline of one request: `timeoutMs` (default {@link DEFAULT_PROVIDER_TIMEOUT_MS}) from now. */
export function startRequestDeadline(
  timeoutMs: number | undefined,
  callerSignal: AbortSignal | undefined,
): RequestDeadline {
  const limit = timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const timer = AbortSignal.timeout(limit);
  return {
    signal: callerSignal ? AbortSignal.any([callerSignal, timer]) : timer,
    timeoutMs: limit,
    expired: () => timer.aborted && !callerSignal?.aborted,
  };
}
