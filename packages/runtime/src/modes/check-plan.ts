import type { ModelToolCall } from '../model/language-model.js';
import type { AttemptEnd, TurnContext } from '../planner/turn-context.js';

/**
 * The caps of seed 002 applied to a whole online plan before anything runs: more calls than `cap_steps`, or more
 * calls of one executor than `cap_same_executor`, refuse the plan whole.
 */
export function checkPlanCaps(turn: TurnContext, calls: readonly ModelToolCall[]): AttemptEnd | undefined {
  if (calls.length > turn.capSteps) {
    return {
      kind: 'cap_steps',
      message: `The plan was refused: it has ${calls.length} steps, more than the step limit (${turn.capSteps}). Nothing was run.`,
    };
  }
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  for (const [name, count] of counts) {
    const isExecutor = turn.candidates.some((candidate) => candidate.name === name);
    if (isExecutor && count > turn.capSameExecutor) {
      return {
        kind: 'cap_same_executor',
        message: `The plan was refused: it calls ${name} ${count} times, more than the limit of ${turn.capSameExecutor} calls of one executor. Nothing was run.`,
      };
    }
  }
  return undefined;
}
