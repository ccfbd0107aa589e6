/** The planner's modes (seed 002, ch. 3): local multistep, online single-shot, hybrid with escalation. */

export {
  defaultHybridSettings,
  ESCALATION_TRIGGERS,
  type EscalationTrigger,
  type HybridSettings,
} from '../config/hybrid-settings.js';
export { summarizeAttempt } from './attempt-summary.js';
export { checkPlanCaps } from './check-plan.js';
export { criticalCapabilityRule, failedAttemptRule } from './escalation-rules.js';
export { ESCALATION_TIER, runHybridTurn } from './hybrid-mode.js';
export { type LocalAttemptOptions, runLocalAttempt } from './local-mode.js';
export { MODE_STRATEGIES, type ModeStrategy } from './mode-strategies.js';
export { type OnlineAttemptOptions, runOnlineAttempt } from './online-mode.js';
export {
  type OnlinePlannerPromptOptions,
  onlineAnswerPrompt,
  onlineAnswerRequest,
  onlinePlannerPrompt,
  type PlanOutcome,
} from './online-prompts.js';
export { type ModeRun, runAttempt } from './run-attempt.js';
export { FAILED_VALIDATIONS_TO_ESCALATE, TierLadder } from './tier-ladder.js';
