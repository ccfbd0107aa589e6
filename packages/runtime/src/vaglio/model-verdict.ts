import type { ModelCallLog } from '../model/model-call.js';
import type { ModelJudgement } from './model-judge.js';
import type { Verdict } from './vaglio-action.js';

/** What the model judge gave for one action: a judgement, or why there is none (value-free words). */
export type ModelOutcome = { judgement: ModelJudgement } | { failure: string; call?: ModelCallLog };

/**
 * The verdict of `model` or `both` from the rule judge's verdict (the guard let the action through) and the model
 * judge's outcome: `model` takes the model's score, `both` the lower of the two; a failed or skipped model call
 * keeps the rule verdict, marked `rules-fallback` with the failure in its reason. `reason` stays free of argument
 * values (it is logged); the model's own words go to `model_reason`.
 */
export function modelVerdict(
  rules: Verdict,
  outcome: ModelOutcome,
  setting: 'model' | 'both',
  threshold: number,
): Verdict {
  if ('failure' in outcome) {
    return {
      ...rules,
      judge_kind: 'rules-fallback',
      reason: `${rules.reason}; rules-fallback: ${outcome.failure}`,
      ...(outcome.call ? { model_call: outcome.call } : {}),
    };
  }
  const { judgement } = outcome;
  const score = setting === 'both' ? Math.min(rules.score ?? 1, judgement.score) : judgement.score;
  const approved = score >= threshold;
  const parts =
    setting === 'both' ? `: rules ${(rules.score ?? 0).toFixed(2)}, model ${judgement.score.toFixed(2)}` : '';
  return {
    approved,
    reason: `judge (${setting}): alignment ${score.toFixed(2)} ${approved ? '>=' : 'below'} threshold ${threshold.toFixed(2)}${parts}`,
    score,
    blocked_by: approved ? null : 'judge',
    judge_kind: setting,
    ts: rules.ts,
    model_reason: judgement.reason,
    model_call: judgement.call,
  };
}
