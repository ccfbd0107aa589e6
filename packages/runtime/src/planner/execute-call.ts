import type { Tier } from '../config/runtime-config.js';
import type { ModelToolCall } from '../model/language-model.js';
import type { Verdict } from '../vaglio/vaglio-action.js';
import { runStep, type StepObservation } from './run-step.js';
import type { StepState } from './step-context.js';
import type { Attempt, TurnContext } from './turn-context.js';
import { clipForLog } from './turn-log.js';
import type { StepRecordLog } from './turn-record.js';

/** What the model request that proposed a call cost (charged to the first call of the reply). */
export type CallCost = StepRecordLog['llm'];

/** Characters of each step's observation the turn log keeps (previews are far shorter). */
const MAX_LOGGED_OBSERVATION_CHARS = 8000;

/** The cost of a call that shares its model request with the one before it. */
export const NO_COST: CallCost = { inputTokens: 0, outputTokens: 0, latencyMs: 0 };

/** Options of {@link executeCall}. */
export interface ExecuteCallOptions {
  llm: CallCost;
  tier: Tier;
  /** A verdict already given on these exact arguments (an online plan is judged before it runs). */
  prejudged?: Verdict;
}

/**
 * Runs one proposed call as the next step of `attempt`, the same way in every mode: logged, references resolved,
 * validated, judged, executed, offloaded; then the step is reported and remembered for later references.
 */
export async function executeCall(
  turn: TurnContext,
  attempt: Attempt,
  call: ModelToolCall,
  options: ExecuteCallOptions,
): Promise<StepObservation> {
  const started = turn.now();
  const number = attempt.log.steps.length + 1;
  const isBuiltin = call.name === turn.readTool.name && attempt.offloaded;
  const executor = turn.candidates.find((candidate) => candidate.name === call.name);
  const log: StepRecordLog = {
    step: number,
    tool: call.name,
    llm: options.llm,
    rawArgs: clipForLog(call.arguments),
    resolvedArgs: clipForLog(call.arguments),
    outcome: 'executed',
    result: {},
    tier: options.tier,
  };
  attempt.log.steps.push(log);
  const state: StepState = { step: number, tool: call.name, args: call.arguments, ran: false };
  attempt.states.push(state);
  const observation = await runStep({
    call,
    number,
    log,
    state,
    executor,
    isBuiltin,
    readTool: turn.readTool,
    session: turn.session,
    stepValues: attempt.stepValues,
    history: attempt.history,
    states: attempt.states,
    executorCalls: attempt.executorCalls,
    validator: turn.validator,
    offloader: turn.offloader,
    options: turn.options,
    turnId: turn.turnId,
    judgeBudget: turn.judgeBudget,
    ...(options.prejudged ? { prejudged: options.prejudged } : {}),
  });
  // What the model read back, whichever way the step ended (bounded; the clip says how much it left out).
  log.result = {
    ...log.result,
    observation: clipForLog(observation.text, MAX_LOGGED_OBSERVATION_CHARS) as string,
  };
  if (log.vaglio?.model_call) turn.record.model_calls.push(log.vaglio.model_call);
  if (observation.offloaded) attempt.offloaded = true;
  attempt.lastObservation = observation.text;
  attempt.history.push({
    action: `${call.name} ${JSON.stringify(call.arguments)}`,
    observation: observation.text,
  });
  turn.emit({ type: 'step-end', step: log, latencyMs: turn.now() - started });
  return observation;
}
