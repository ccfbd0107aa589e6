import { foldText, tokenize } from '../prefilter/tokenize.js';
import { argumentKeys, argumentStrings } from './argument-strings.js';
import { percentDecode, shellUnquote } from './text-variants.js';
import type { VaglioAction } from './vaglio-action.js';

/** Starting alignment of every action (seed 002, ch. 8). */
export const JUDGE_BASE_SCORE = 0.7;
/** Added when the user's request names the executor (explicit intent). */
export const JUDGE_NAME_BONUS = 0.15;
/** Removed when a path-like argument climbs with `..` (possible traversal). */
export const JUDGE_TRAVERSAL_PENALTY = 0.25;
/** Removed when an argument key has characters other than letters, digits and `_` (anomaly). */
export const JUDGE_KEY_PENALTY = 0.25;

/** One rule that moved the score. */
export interface JudgeAdjustment {
  /** Constant description of the rule (never an argument value). */
  label: string;
  delta: number;
}

/** Result of {@link scoreAlignment}. */
export interface AlignmentScore {
  /** In [0, 1], rounded to two decimals. */
  score: number;
  adjustments: JudgeAdjustment[];
}

const TRAVERSAL = /(?:^|[/\\\s'"=:])\.\.(?:$|[/\\\s'"])/;
const PLAIN_KEY = /^[A-Za-z0-9_]+$/;

/**
 * The rule-based judge (teleology): alignment of the action with the user's request, from base 0.7: +0.15 when
 * the request names the executor (`fs_read`, or its words in order: "fs read"), −0.25 when an argument contains
 * a `..` path segment (also URL-encoded), −0.25 when any argument key (at any depth) has characters other than
 * `[A-Za-z0-9_]`. With both penalties an action falls to 0.20, below the default threshold 0.30; with one it
 * stays at 0.45.
 */
export function scoreAlignment(action: VaglioAction): AlignmentScore {
  const adjustments: JudgeAdjustment[] = [];
  if (action.intent !== undefined && intentNamesExecutor(action.intent, action.executor)) {
    adjustments.push({ label: 'the request names the executor', delta: JUDGE_NAME_BONUS });
  }
  const climbs = argumentStrings(action.args).some(({ value }) => {
    const decoded = percentDecode(value);
    return TRAVERSAL.test(decoded) || TRAVERSAL.test(shellUnquote(decoded));
  });
  if (climbs)
    adjustments.push({
      label: "'..' in a path argument (possible traversal)",
      delta: -JUDGE_TRAVERSAL_PENALTY,
    });
  if (argumentKeys(action.args).some((key) => !PLAIN_KEY.test(key))) {
    adjustments.push({
      label: 'argument key with characters other than [A-Za-z0-9_]',
      delta: -JUDGE_KEY_PENALTY,
    });
  }
  const raw = adjustments.reduce((total, adjustment) => total + adjustment.delta, JUDGE_BASE_SCORE);
  return { score: Math.round(Math.min(1, Math.max(0, raw)) * 100) / 100, adjustments };
}

function intentNamesExecutor(intent: string, executor: string): boolean {
  if (foldText(intent).includes(foldText(executor))) return true;
  const nameWords = tokenize(executor.replaceAll('_', ' '));
  if (nameWords.length === 0) return false;
  const intentWords = tokenize(intent);
  for (let start = 0; start + nameWords.length <= intentWords.length; start += 1) {
    if (nameWords.every((word, offset) => intentWords[start + offset] === word)) return true;
  }
  return false;
}
