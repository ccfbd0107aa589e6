/** Executors whose repeated call on the same target is a re-read (seed 002, ch. 10). */
export const DUPLICATE_GUARDED_EXECUTORS: ReadonlySet<string> = new Set(['fs_read', 'fs_write', 'web_fetch']);

/** The path or URL an action targets, if it has one. */
export function actionTarget(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const record = args as Record<string, unknown>;
  for (const key of ['path', 'url']) {
    if (typeof record[key] === 'string' && record[key].length > 0) return `${key}:${record[key]}`;
  }
  return undefined;
}

/**
 * The earlier step that already touched the same target with the same executor, if any. The builtin scratchpad
 * read is never guarded: reading several slices of one entry is its normal use.
 */
export function findDuplicateStep(
  executor: string,
  args: unknown,
  earlier: ReadonlyArray<{ step: number; tool: string; args: unknown; ran: boolean }>,
): number | undefined {
  if (!DUPLICATE_GUARDED_EXECUTORS.has(executor)) return undefined;
  const target = actionTarget(args);
  if (target === undefined) return undefined;
  return earlier.find((step) => step.ran && step.tool === executor && actionTarget(step.args) === target)
    ?.step;
}

/** The observation the model gets instead of a re-read. */
export function duplicateReadObservation(executor: string, step: number): string {
  return JSON.stringify({
    ok: false,
    error: `You already have this data at step ${step} (${executor} on the same target): not run again. Use the observation of step ${step} (or read its stored entry) and formulate the final answer.`,
  });
}
