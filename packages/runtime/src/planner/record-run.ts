import type { ExecutorRun } from '../executors/run-executor.js';
import type { StepRecordLog } from './turn-record.js';

/**
 * Writes what the turn log keeps of one executor run: how it was isolated (`sandbox`: `bubblewrap`, `off`,
 * `unavailable`), its process facts, and `refused` as the outcome when nothing was started (code changed since it
 * was verified, or no sandbox and no opt-out) or when the call changed git metadata that the sandbox then undid.
 */
export function recordRun(log: StepRecordLog, run: ExecutorRun): void {
  log.sandbox = run.sandbox ?? 'off';
  log.run = {
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    outputCapped: run.outputCapped,
    durationMs: run.durationMs,
    network: run.network ?? true,
  };
  if (run.refused) {
    log.outcome = 'refused';
    log.refused = run.refused;
  }
}
