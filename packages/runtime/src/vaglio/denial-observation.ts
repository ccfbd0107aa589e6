import type { ExecutorOutcome } from '../executors/executor-outcome.js';
import { EXPANSION_RULES, type ExpansionRuleId } from './unresolved-expansions.js';
import type { Verdict } from './vaglio-action.js';

/**
 * The observation the model reads when the vaglio denies an action: `{ok: false, error, metadata.vaglio}`, with
 * what was refused, by which phase, and what to do next. Safe to put in the turn history as the step's result.
 */
export function denialObservation(verdict: Verdict, executor: string): ExecutorOutcome {
  const vaglio = {
    blocked_by: verdict.blocked_by,
    score: verdict.score,
    judge_kind: verdict.judge_kind,
    rule: verdict.rule ?? null,
  };
  const expansion = EXPANSION_RULES[verdict.rule as ExpansionRuleId] as
    | (typeof EXPANSION_RULES)[ExpansionRuleId]
    | undefined;
  if (verdict.blocked_by === 'guard' && expansion) {
    return {
      ok: false,
      error:
        `Action refused by the vaglio (guard): ${executor} was not run. ${verdict.reason}: the guard must be able ` +
        `to read what will run. ${expansion.advice}`,
      metadata: { vaglio },
    };
  }
  if (verdict.blocked_by === 'guard') {
    return {
      ok: false,
      error:
        `Action refused by the vaglio (guard, non-negotiable): ${executor} was not run. ${verdict.reason}. ` +
        'Do not retry it with another spelling, path or command; tell the user this is not allowed, or continue another way.',
      metadata: { vaglio },
    };
  }
  if (verdict.model_reason !== undefined) {
    return {
      ok: false,
      error:
        `Action refused by the vaglio (judge): ${executor} was not run. ${verdict.reason}. The judge said: ` +
        `${verdict.model_reason} If the user's request really needs this call, make its purpose plain in the ` +
        'arguments; otherwise continue another way.',
      metadata: { vaglio },
    };
  }
  return {
    ok: false,
    error:
      `Action refused by the vaglio (judge): ${executor} was not run. ${verdict.reason}. ` +
      "If the user's request really needs this call, retry with plain argument names (letters, digits, _) and " +
      "without '..' in paths; otherwise continue another way.",
    metadata: { vaglio },
  };
}
