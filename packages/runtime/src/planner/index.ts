/** The seed 002 planner: one turn from a query to a final answer or a cap, with its JSONL turn log. */
export { ArgumentValidator } from './argument-validator.js';
export { actionTarget, DUPLICATE_GUARDED_EXECUTORS, findDuplicateStep } from './duplicate-read-guard.js';
export { type PlannerPromptOptions, plannerSystemPrompt } from './planner-prompt.js';
export { type RunQueryOptions, type RunQueryResult, runQuery } from './run-query.js';
export {
  DEFAULT_SCRATCHPAD_TTL_SECONDS,
  RUNTIME_OFFLOAD_THRESHOLD,
  type RunTurnOptions,
  runTurn,
  type TurnResult,
} from './run-turn.js';
export type { Attempt, AttemptEnd, TurnContext } from './turn-context.js';
export type { TurnEvent } from './turn-events.js';
export { appendTurnLog, turnLogFile } from './turn-log.js';
export type {
  EscalationLog,
  FinalKind,
  PlannedCall,
  StepOutcome,
  StepRecordLog,
  TierEscalationLog,
  TurnAttemptLog,
  TurnLogRecord,
  TurnMode,
} from './turn-record.js';
