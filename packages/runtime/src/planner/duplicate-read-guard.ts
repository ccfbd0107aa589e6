/** Executors whose repeated call on the same target is a re-read (seed 002, ch. 10). */
export const DUPLICATE_GUARDED_EXECUTORS: ReadonlySet<string> = new Set(['fs_read', 'fs_write', 'web_fetch']);

/** Arguments that choose which part of a target is read: another part is not a re-read. */
const PART_KEYS = ['offset', 'tail_bytes', 'max_bytes'];

/**
 * The path or URL an action targets, if it has one, with the part of it the action reads (`offset`, `tail_bytes`,
 * `max_bytes`, a `Range` header): reading on where a cut result ended (the call its cut notice names) is not a
 * re-read of the same data.
 */
export function actionTarget(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const record = args as Record<string, unknown>;
  for (const key of ['path', 'url']) {
    if (typeof record[key] === 'string' && record[key].length > 0)
      return `${key}:${record[key]}${partOf(record)}`;
  }
  return undefined;
}

function partOf(record: Record<string, unknown>): string {
  const part: unknown[] = PART_KEYS.map((key) => record[key] ?? null);
  const headers = record.headers;
  if (typeof headers === 'object' && headers !== null) {
    const range = Object.entries(headers).find(([name]) => name.toLowerCase() === 'range');
    part.push(range?.[1] ?? null);
  } else part.push(null);
  return part.every((value) => value === null) ? '' : ` ${JSON.stringify(part)}`;
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
