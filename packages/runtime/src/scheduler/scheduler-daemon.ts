import type { Scheduler, TaskRun } from './scheduler.js';
import type { SchedulerState } from './scheduler-state.js';

/** The daemon's tick period (seed 002, ch. 13). */
export const DAEMON_INTERVAL_MS = 60_000;

/** Options of {@link runSchedulerDaemon}. */
export interface SchedulerDaemonOptions {
  scheduler: Scheduler;
  state: SchedulerState;
  /** Stops the loop (SIGINT, SIGTERM); the tick under way finishes first. */
  signal: AbortSignal;
  /** Default {@link DAEMON_INTERVAL_MS}. */
  intervalMs?: number;
  now?: () => number;
  /** Called after the lock is taken, before the first tick. */
  onStart?: () => void;
  /** Called after each tick with the runs it made. */
  onTick?: (runs: TaskRun[], now: number) => void;
}

/**
 * `scheduler daemon`: takes the state file's daemon lock (a second daemon gets `SCHEDULER_LOCKED` naming the
 * holder), ticks at once and then every minute until `signal` aborts, and releases the lock.
 */
export async function runSchedulerDaemon(options: SchedulerDaemonOptions): Promise<void> {
  const now = options.now ?? Date.now;
  await options.state.lockDaemon(process.pid, now());
  try {
    options.onStart?.();
    while (!options.signal.aborted) {
      const time = now();
      options.onTick?.(await options.scheduler.tick(time), time);
      await idle(options.intervalMs ?? DAEMON_INTERVAL_MS, options.signal);
    }
  } finally {
    await options.state.unlockDaemon(process.pid);
  }
}

function idle(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
