import type { PlannedCall } from '../planner/turn-record.js';

/** Options of {@link onlinePlannerPrompt}. */
export interface OnlinePlannerPromptOptions {
  tierPrompt: string;
  capSteps: number;
  capSameExecutor: number;
  now: Date;
}

/**
 * The system prompt of an online plan: the whole task as several tool calls in one reply, with `{{stepN.field}}`
 * pointing at earlier calls of the same plan, since no result is seen before the plan has run.
 */
export function onlinePlannerPrompt(options: OnlinePlannerPromptOptions): string {
  return `${options.tierPrompt}

You are the planner of an assistant that works in a single shot: reply with the complete plan at once, as several tool calls in one reply, in the order they must run. You will not see any result before the whole plan has run, and you cannot call tools afterwards: a second request will turn the results into the answer.
- At most ${options.capSteps} tool calls, and at most ${options.capSameExecutor} calls of the same tool. A longer plan is refused whole.
- To pass the output of an earlier call of the plan to a later one, write {{stepN.field}} as the whole argument value: N is the position of that call in your plan (1 = the first), field is a key of its result, nested with dots ({{step1.content}}, {{step1.metadata.path}}). Results have ok, content and metadata; only reference fields a result will have.
- Every call is checked before anything runs: if one is refused, nothing runs. Ask only for what the request needs.
- If the request needs no tool, answer in plain text without calling any.
Today is ${options.now.toISOString().slice(0, 10)}.`;
}

/** The system prompt of the second online request: the results, no tools, the answer. */
export function onlineAnswerPrompt(tierPrompt: string): string {
  return `${tierPrompt}

You write the final answer of an assistant's turn. The plan below was run for the user's request. Answer the user directly in plain text, using only what the results show. If a step failed or was not run, say what could not be done and why. Never invent content that a result does not show.`;
}

/** One planned call and what came of it, for the answer request. */
export interface PlanOutcome {
  call: PlannedCall;
  /** The observation (as the model would have read it), or `undefined` when the step did not run. */
  observation?: string;
}

/** The user message of the answer request: the request, then each step with its result or why it did not run. */
export function onlineAnswerRequest(
  query: string,
  outcomes: readonly PlanOutcome[],
  stopped?: string,
): string {
  const lines = outcomes.map(({ call, observation }) => {
    const head = `Step ${call.step}: ${call.tool} ${JSON.stringify(call.args)}`;
    return observation === undefined
      ? `${head}\n→ not run${stopped ? `: ${stopped}` : ''}`
      : `${head}\n→ ${observation}`;
  });
  return `The user's request: ${query}\n\nThe plan and its results:\n${lines.join('\n\n')}\n\nWrite the answer to the user now.`;
}
