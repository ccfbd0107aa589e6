/** One proposed call, as the vaglio judges it. */
export interface VaglioAction {
  /** Executor name (`fs_read`). */
  executor: string;
  /** The executor's capabilities; `code:exec` turns on the destructive-command rules. */
  capabilities?: readonly string[];
  /** The arguments, after `{{stepN.field}}` substitution: what would actually run. */
  args: unknown;
  /** The user's request (the telos the judge measures alignment against). */
  intent?: string;
  /** Working directory the executor would run in; default the vaglio's. An argument named `cwd` overrides it. */
  cwd?: string;
}

import type { ModelCallLog } from '../model/model-call.js';

/** Which phase blocked an action: the guard (non-negotiable rules) or the judge (alignment score). */
export type BlockedBy = 'guard' | 'judge';

/** The vaglio's decision on one action (seed 002, ch. 8). */
export interface Verdict {
  approved: boolean;
  /** Why, in words; names rules and argument keys, never argument values. */
  reason: string;
  /** Alignment in [0, 1]; `null` when the guard blocked (no score, as the seed says). */
  score: number | null;
  blocked_by: BlockedBy | null;
  /**
   * Which judge scored it: `rules`, `model` (the middle tier), `both` (the lower score), or `rules-fallback` (the
   * model judge was asked for but failed or its budget was used up, so the rule judge decided).
   */
  judge_kind: JudgeKind;
  /** ISO 8601 time of the decision. */
  ts: string;
  /** The rule that fired, when one did (`ssh`, `recursive-delete`, …). */
  rule?: string;
  /** The model judge's one-line reason (kept out of the vaglio log: it may quote argument values). */
  model_reason?: string;
  /** The model judge's request, when one was made. */
  model_call?: ModelCallLog;
}

/** Which judge produced a verdict. */
export type JudgeKind = 'rules' | 'model' | 'both' | 'rules-fallback';
