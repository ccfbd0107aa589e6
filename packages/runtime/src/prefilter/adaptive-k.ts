/** Options of the adaptive K rule. */
export interface AdaptiveKOptions {
  /** Candidates passed when the winner is clear, and the most zero-score candidates ever passed. Default 5. */
  kMin?: number;
  /** Candidates passed when the scores are flat. Default 40. */
  kMax?: number;
  /** Confidence at or above which the top-1 counts as a clear winner. Default 0.5 (top-1 scores at least twice the runner-up). */
  clearWinnerConfidence?: number;
}

/** Why K has the value it has. */
export type AdaptiveKReason = 'empty-catalog' | 'no-match' | 'clear-winner' | 'ambiguous' | 'flat';

/** Result of {@link chooseK}. */
export interface AdaptiveKResult {
  k: number;
  reason: AdaptiveKReason;
  /** `(s1 - s2) / s1`: 1 when only the top-1 matches, 0 when it ties with the runner-up. */
  confidence: number;
}

/** Default minimum K (seed 002, ch. 5). */
export const DEFAULT_K_MIN = 5;
/** Default maximum K (seed 002, ch. 5). */
export const DEFAULT_K_MAX = 40;

/**
 * How many candidates to pass to the model, from how clearly the top-1 stands out (seed 002, ch. 5):
 *
 * - confidence `c = (s1 - s2) / s1`, with `s1`, `s2` the two best scores;
 * - nothing matches (`s1 = 0`): `K = k_min` — no point in passing zero-score candidates beyond a small sample;
 * - clear winner (`c ≥ 0.5`, the top-1 scores at least twice the runner-up): `K = k_min`;
 * - otherwise K grows linearly as `c` falls, up to `k_max` on a tie at the top (flat scores: let the model decide):
 *   `K = k_min + ⌈(k_max − k_min) · (1 − c / 0.5)⌉`;
 * - zero-score candidates are never padded in beyond `k_min`: `K ≤ max(k_min, number of positive scores)`;
 * - and `K ≤` the catalog size.
 *
 * `scores` are all candidates' scores sorted from best to worst (zeros included or not: only positives count).
 */
export function chooseK(
  scores: readonly number[],
  catalogSize: number,
  options: AdaptiveKOptions = {},
): AdaptiveKResult {
  const kMin = options.kMin ?? DEFAULT_K_MIN;
  const kMax = options.kMax ?? DEFAULT_K_MAX;
  const clear = options.clearWinnerConfidence ?? 0.5;
  if (catalogSize === 0) return { k: 0, reason: 'empty-catalog', confidence: 0 };
  const best = scores[0] ?? 0;
  if (best <= 0) return { k: Math.min(kMin, catalogSize), reason: 'no-match', confidence: 0 };
  const runnerUp = scores[1] ?? 0;
  const confidence = (best - Math.max(0, runnerUp)) / best;
  let positives = 0;
  while (positives < scores.length && (scores[positives] ?? 0) > 0) positives += 1;
  const cap = Math.min(Math.max(kMin, positives), catalogSize);
  if (confidence >= clear) return { k: Math.min(kMin, cap), reason: 'clear-winner', confidence };
  // The epsilon keeps float noise (35 × 0.6 = 21.000000000000004) from adding a candidate.
  const k = kMin + Math.ceil((kMax - kMin) * (1 - confidence / clear) - 1e-9);
  return { k: Math.min(k, cap), reason: confidence === 0 ? 'flat' : 'ambiguous', confidence };
}
