/** Which judge scores an action after the guard (`[runtime.vaglio] judge`). */
export type JudgeSetting = 'rules' | 'model' | 'both';

/** Every {@link JudgeSetting}. */
export const JUDGE_SETTINGS: readonly JudgeSetting[] = ['rules', 'model', 'both'];

/** `[runtime.vaglio]`: the judge and its budget. */
export interface JudgeSettings {
  /** `rules` (local heuristics), `model` (the middle tier), `both` (the lower of the two scores). */
  judge: JudgeSetting;
  /** `max_judge_calls_per_turn`: model judge calls a turn may make; past it, the rule judge decides. */
  maxJudgeCallsPerTurn: number;
}

/** Defaults: the rule judge, and at most 10 model judge calls per turn when the model judge is on. */
export function defaultJudgeSettings(): JudgeSettings {
  return { judge: 'rules', maxJudgeCallsPerTurn: 10 };
}
