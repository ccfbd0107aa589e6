/** How many model judge calls a turn may still make (`max_judge_calls_per_turn`). */
export interface JudgeBudget {
  readonly max: number;
  used: number;
}

/** A fresh budget of `max` model judge calls. */
export function createJudgeBudget(max: number): JudgeBudget {
  return { max, used: 0 };
}
