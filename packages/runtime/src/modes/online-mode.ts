import { formatUnknownError } from 'llm-scratchpad';
import type { Tier } from '../config/runtime-config.js';
import { invalidToolArguments, type ModelToolCall } from '../model/language-model.js';
import { callModel } from '../planner/call-model.js';
import { executeCall, NO_COST } from '../planner/execute-call.js';
import type { Attempt, AttemptEnd, TurnContext } from '../planner/turn-context.js';
import { clipForLog } from '../planner/turn-log.js';
import type { PlannedCall } from '../planner/turn-record.js';
import type { TierModel } from '../tiers/tier-models.js';
import type { Verdict } from '../vaglio/vaglio-action.js';
import { checkPlanCaps } from './check-plan.js';
import {
  onlineAnswerPrompt,
  onlineAnswerRequest,
  onlinePlannerPrompt,
  type PlanOutcome,
} from './online-prompts.js';

/** Options of {@link runOnlineAttempt}. */
export interface OnlineAttemptOptions {
  tier: Tier;
  /** What an earlier attempt did and how it ended (a hybrid turn's local attempt), added to the request. */
  priorAttempt?: string;
}

/**
 * The online mode of seed 002 (single-shot): one request returns the whole plan as native tool calls; the caps
 * and the vaglio check every step before any runs, and one refusal ends the turn with nothing run; then the
 * steps run in order (each observation offloaded as usual, a failing step stops the plan) and a second request to
 * the same tier, with no tools, turns the results into the answer.
 */
export async function runOnlineAttempt(
  turn: TurnContext,
  attempt: Attempt,
  options: OnlineAttemptOptions,
): Promise<AttemptEnd> {
  let planResponse: Awaited<ReturnType<typeof callModel>>;
  let tierModel: TierModel;
  try {
    tierModel = turn.tiers.get(options.tier);
    planResponse = await callModel(turn, tierModel, 'plan', {
      system: onlinePlannerPrompt({
        tierPrompt: tierModel.prompt,
        capSteps: turn.capSteps,
        capSameExecutor: turn.capSameExecutor,
        now: new Date(turn.now()),
      }),
      messages: [
        {
          role: 'user',
          content: options.priorAttempt
            ? `${turn.options.query}\n\n${options.priorAttempt}`
            : turn.options.query,
        },
      ],
      tools: turn.executorTools,
    });
  } catch (error) {
    return { kind: 'error', message: formatUnknownError(error) };
  }
  const calls = planResponse.toolCalls;
  if (calls.length === 0) {
    const answer = planResponse.text.trim();
    return { kind: 'answer', message: answer || '(the model ended the turn without an answer)' };
  }
  const plan: PlannedCall[] = calls.map((call, index) => ({
    step: index + 1,
    tool: call.name,
    args: clipForLog(call.arguments),
  }));
  attempt.log.plan = plan;
  turn.emit({ type: 'plan', calls: plan });

  const capped = checkPlanCaps(turn, calls);
  if (capped) return capped;
  const verdicts: Array<Verdict | undefined> = [];
  for (const [index, call] of calls.entries()) {
    const verdict = await prejudge(turn, call);
    verdicts.push(verdict);
    if (!verdict) continue;
    (plan[index] as PlannedCall).verdict = verdict;
    if (verdict.model_call) turn.record.model_calls.push(verdict.model_call);
    if (!verdict.approved) return refusal(index + 1, call.name, verdict, 'Nothing was run.');
  }

  const outcomes: PlanOutcome[] = plan.map((call) => ({ call }));
  let stopped: string | undefined;
  for (const [index, call] of calls.entries()) {
    const observation = await executeCall(turn, attempt, call, {
      llm:
        index === 0
          ? {
              inputTokens: planResponse.usage.inputTokens,
              outputTokens: planResponse.usage.outputTokens,
              latencyMs: planResponse.latencyMs,
            }
          : NO_COST,
      tier: options.tier,
      ...(verdicts[index] ? { prejudged: verdicts[index] } : {}),
    });
    (outcomes[index] as PlanOutcome).observation = observation.text;
    const step = attempt.log.steps.at(-1);
    // A reference can bring new text into the arguments: the step was judged again, and a refusal ends the turn.
    if (step?.outcome === 'denied' && step.vaglio) {
      const ran =
        index === 0 ? 'Nothing else was run.' : `Steps 1–${index} had already run; nothing else was.`;
      return refusal(index + 1, call.name, step.vaglio, ran);
    }
    if (observation.isError) {
      stopped = `step ${index + 1} (${call.name}) failed`;
      break;
    }
  }

  try {
    const response = await callModel(turn, tierModel, 'answer', {
      system: onlineAnswerPrompt(tierModel.prompt),
      messages: [{ role: 'user', content: onlineAnswerRequest(turn.options.query, outcomes, stopped) }],
    });
    const answer = response.text.trim();
    return { kind: 'answer', message: answer || '(the model ended the turn without an answer)' };
  } catch (error) {
    return { kind: 'error', message: formatUnknownError(error) };
  }
}

/** The verdict on a planned executor call's proposed arguments; `undefined` for calls that cannot be judged. */
async function prejudge(turn: TurnContext, call: ModelToolCall): Promise<Verdict | undefined> {
  const executor = turn.candidates.find((candidate) => candidate.name === call.name);
  if (!executor || invalidToolArguments(call)) return undefined;
  return turn.options.vaglio.review(
    {
      executor: executor.name,
      capabilities: executor.capabilities,
      args: call.arguments,
      intent: turn.options.query,
    },
    turn.judgeBudget,
    turn.options.signal,
  );
}

function refusal(step: number, tool: string, verdict: Verdict, ran: string): AttemptEnd {
  const judge = verdict.model_reason ? ` The judge said: ${verdict.model_reason}` : '';
  return {
    kind: 'error',
    message: `The plan was refused: step ${step} (${tool}) was denied by the vaglio (${verdict.reason}).${judge} ${ran}`,
  };
}
