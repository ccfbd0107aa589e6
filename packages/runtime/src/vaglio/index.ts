/** The vaglio (seed 002, ch. 8): a guard with non-negotiable rules, then a rule or model judge, with a private log. */
export { type ArgumentString, argumentKeys, argumentStrings } from './argument-strings.js';
export { denialObservation } from './denial-observation.js';
export {
  DESTRUCTIVE_RULE_LABELS,
  type DestructiveFinding,
  type DestructiveRuleId,
  findDestructiveCommand,
  isDangerousTarget,
} from './destructive-commands.js';
export { CODE_EXEC_CAPABILITY, type GuardEnvironment, type GuardFinding, runGuard } from './guard.js';
export { expandHome, type GuardContext, REALPATH_BUDGET } from './guard-context.js';
export { createJudgeBudget, type JudgeBudget } from './judge-budget.js';
export {
  defaultJudgeSettings,
  JUDGE_SETTINGS,
  type JudgeSetting,
  type JudgeSettings,
} from './judge-settings.js';
export {
  createModelJudge,
  describeAction,
  JUDGEMENT_FORMAT,
  type JudgeTier,
  type ModelJudge,
  type ModelJudgeConfig,
  type ModelJudgement,
  parseJudgement,
} from './model-judge.js';
export { type ModelOutcome, modelVerdict } from './model-verdict.js';
export { findSensitivePath, type SensitivePathFinding } from './path-guard.js';
export {
  type AlignmentScore,
  JUDGE_BASE_SCORE,
  JUDGE_KEY_PENALTY,
  JUDGE_NAME_BONUS,
  JUDGE_TRAVERSAL_PENALTY,
  type JudgeAdjustment,
  scoreAlignment,
} from './rules-judge.js';
export { matchSensitivePath, SENSITIVE_PATH_RULES, type SensitivePathRule } from './sensitive-path-rules.js';
export {
  createVaglio,
  DEFAULT_JUDGE_THRESHOLD,
  JUDGE_THRESHOLD_VARIABLE,
  type Vaglio,
  type VaglioConfig,
} from './vaglio.js';
export type { BlockedBy, JudgeKind, VaglioAction, Verdict } from './vaglio-action.js';
export { appendVaglioLog, loggedArgumentKeys, type VaglioLogRecord, vaglioLogFile } from './vaglio-log.js';
