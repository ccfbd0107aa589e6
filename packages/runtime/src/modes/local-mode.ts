import { formatUnknownError } from 'llm-scratchpad';
import type { Tier } from '../config/runtime-config.js';
import type { ModelMessage } from '../model/language-model.js';
import { callModel } from '../planner/call-model.js';
import { compactHistory } from '../planner/compact-history.js';
import { findDuplicateStep } from '../planner/duplicate-read-guard.js';
import { executeCall, NO_COST } from '../planner/execute-call.js';
import { plannerSystemPrompt } from '../planner/planner-prompt.js';
import type { Attempt, AttemptEnd, TurnContext } from '../planner/turn-context.js';
import { TierLadder } from './tier-ladder.js';

/** Options of {@link runLocalAttempt}. */
export interface LocalAttemptOptions {
  /** The tier the loop starts on. */
  tier: Tier;
}

/**
 * The local mode of seed 002: a multistep ReAct loop, one model round trip per step. The model proposes calls
 * (native tool calling), each runs as a step and its observation goes back, until the model answers in plain
 * text or a cap ends the attempt. With `escalate_tier`, two failed validations in a row move the rest of the
 * loop to the next tier up.
 */
export async function runLocalAttempt(
  turn: TurnContext,
  attempt: Attempt,
  options: LocalAttemptOptions,
): Promise<AttemptEnd> {
  let messages: ModelMessage[] = [{ role: 'user', content: turn.options.query }];
  const ladder = new TierLadder(turn, options.tier);
  const systemPrompts = new Map<Tier, string>();
  for (;;) {
    const tier = ladder.current;
    let response: Awaited<ReturnType<typeof callModel>>;
    try {
      // Older results are masked recoverably (compactMessages' default policy) before each request.
      messages = await compactHistory(turn, attempt, messages);
      // The read tool joins the list as soon as the attempt has stored entries (seed 000 §7).
      const tools = attempt.offloaded ? [...turn.executorTools, turn.readDefinition] : turn.executorTools;
      const tierModel = turn.tiers.get(tier);
      let system = systemPrompts.get(tier);
      if (system === undefined) {
        system = plannerSystemPrompt({
          capSteps: turn.capSteps,
          capSameExecutor: turn.capSameExecutor,
          scratchpadGuidance: turn.scratchpadGuidance,
          tierPrompt: tierModel.prompt,
          now: new Date(turn.now()),
        });
        systemPrompts.set(tier, system);
      }
      response = await callModel(turn, tierModel, 'step', { system, messages, tools });
    } catch (error) {
      return { kind: 'error', message: formatUnknownError(error) };
    }
    if (response.toolCalls.length === 0) {
      const answer = response.text.trim();
      return {
        kind: 'answer',
        message: answer.length > 0 ? answer : '(the model ended the turn without an answer)',
      };
    }
    messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
    for (const [index, call] of response.toolCalls.entries()) {
      const cap = capReached(turn, attempt, call.name, call.arguments);
      if (cap) return cap;
      const observation = await executeCall(turn, attempt, call, {
        llm:
          index === 0
            ? {
                inputTokens: response.usage.inputTokens,
                outputTokens: response.usage.outputTokens,
                latencyMs: response.latencyMs,
              }
            : NO_COST,
        tier,
      });
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: observation.text,
        ...(observation.isError ? { isError: true } : {}),
      });
      ladder.observe(attempt.log.steps.at(-1));
    }
  }
}

/** The cap the next call would break, if any (a duplicate read is let through: the guard answers it). */
function capReached(
  turn: TurnContext,
  attempt: Attempt,
  name: string,
  args: unknown,
): AttemptEnd | undefined {
  if (attempt.log.steps.length >= turn.capSteps)
    return { kind: 'cap_steps', message: capMessage(`the step limit (${turn.capSteps})`, attempt) };
  const isBuiltin = name === turn.readTool.name && attempt.offloaded;
  const isExecutor = turn.candidates.some((candidate) => candidate.name === name);
  if (
    isExecutor &&
    !isBuiltin &&
    (attempt.executorCalls.get(name) ?? 0) >= turn.capSameExecutor &&
    findDuplicateStep(name, args, attempt.states) === undefined
  ) {
    return {
      kind: 'cap_same_executor',
      message: capMessage(`the limit of ${turn.capSameExecutor} calls of ${name}`, attempt),
    };
  }
  return undefined;
}

function capMessage(limit: string, attempt: Attempt): string {
  const last = attempt.lastObservation;
  const shown = last.length > 600 ? `${last.slice(0, 600)}…` : last;
  return `I stopped before finishing: I reached ${limit} without a final answer.${shown ? ` The last result was: ${shown}` : ''}`;
}
