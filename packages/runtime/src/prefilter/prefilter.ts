import { ScratchpadError } from 'llm-scratchpad';
import {
  type AdaptiveKOptions,
  type AdaptiveKReason,
  chooseK,
  DEFAULT_K_MAX,
  DEFAULT_K_MIN,
} from './adaptive-k.js';
import { tokenize } from './tokenize.js';

/** What the pre-filter needs to know about a candidate (an `Executor` qualifies, and so does a builtin tool). */
export interface PrefilterEntry {
  name: string;
  description: string;
  affinity?: readonly string[];
}

/** One ranked candidate. */
export interface PrefilterCandidate<Item extends PrefilterEntry> {
  executor: Item;
  score: number;
}

/** Result of {@link Prefilter.select}. */
export interface PrefilterSelection<Item extends PrefilterEntry> {
  /** The top-K candidates, best first (ties by name). */
  candidates: PrefilterCandidate<Item>[];
  k: number;
  reason: AdaptiveKReason;
  /** How clearly the top-1 stands out, in [0, 1] (see `chooseK`). */
  confidence: number;
}

/** The bag-of-words pre-filter over one catalog. */
export interface Prefilter<Item extends PrefilterEntry> {
  /**
   * Every candidate with a positive score, best first (ties by name), then zero-score candidates by name, at most
   * `limit` in all (default: the whole catalog).
   */
  rank(query: string, limit?: number): PrefilterCandidate<Item>[];
  /** The top-K candidates for `query`, K chosen by the adaptive rule of `chooseK`. */
  select(query: string): PrefilterSelection<Item>;
}

/** Points for a query word found in a candidate's name or affinity words. */
export const AFFINITY_WEIGHT = 2;
/** Points for a query word found only in a candidate's description. */
export const DESCRIPTION_WEIGHT = 1;

/**
 * Builds the pre-filter of seed 002, ch. 5. The catalog is tokenized once into an inverted index (word → the
 * candidates that have it and the points it gives), so ranking a query costs its own tokens plus the matching
 * postings, not a scan of every manifest. Score of a candidate: for each distinct query word, 2 points when it
 * is among the candidate's name or affinity words, else 1 point when it is in its description (words: see
 * `tokenize`, lowercase alphanumeric with accents folded).
 */
export function createPrefilter<Item extends PrefilterEntry>(
  items: readonly Item[],
  options: AdaptiveKOptions = {},
): Prefilter<Item> {
  assertValidKOptions(options);
  const byName = [...items].sort((left, right) =>
    left.name < right.name ? -1 : left.name > right.name ? 1 : 0,
  );
  const postings = new Map<string, number[]>();
  byName.forEach((item, index) => {
    const strong = new Set([
      ...tokenize(item.name.replaceAll('_', ' ')),
      ...(item.affinity ?? []).flatMap(tokenize),
    ]);
    const weak = new Set(tokenize(item.description));
    for (const token of strong) addPosting(postings, token, index, AFFINITY_WEIGHT);
    for (const token of weak) if (!strong.has(token)) addPosting(postings, token, index, DESCRIPTION_WEIGHT);
  });
  const kMax = options.kMax ?? DEFAULT_K_MAX;

  const scores = new Int32Array(byName.length);

  function rank(query: string, limit = byName.length): PrefilterCandidate<Item>[] {
    const touched: number[] = [];
    let best = 0;
    for (const token of new Set(tokenize(query))) {
      const list = postings.get(token);
      if (!list) continue;
      for (let position = 0; position < list.length; position += 2) {
        const index = list[position]!;
        if (scores[index] === 0) touched.push(index);
        const score = scores[index]! + list[position + 1]!;
        scores[index] = score;
        if (score > best) best = score;
      }
    }
    // Scores are small integers: bucket by score and sort only the buckets the limit reaches.
    const buckets: number[][] = Array.from({ length: best + 1 }, () => []);
    for (const index of touched) buckets[scores[index]!]!.push(index);
    const ranked: PrefilterCandidate<Item>[] = [];
    for (let score = best; score > 0 && ranked.length < limit; score -= 1) {
      const bucket = Int32Array.from(buckets[score]!).sort();
      for (let position = 0; position < bucket.length && ranked.length < limit; position += 1) {
        ranked.push({ executor: byName[bucket[position]!]!, score });
      }
    }
    for (let index = 0; index < byName.length && ranked.length < limit; index += 1) {
      if (scores[index] === 0) ranked.push({ executor: byName[index]!, score: 0 });
    }
    for (const index of touched) scores[index] = 0;
    return ranked;
  }

  function select(query: string): PrefilterSelection<Item> {
    const ranked = rank(query, kMax);
    const choice = chooseK(
      ranked.map((candidate) => candidate.score),
      byName.length,
      options,
    );
    return { candidates: ranked.slice(0, choice.k), ...choice };
  }

  return { rank, select };
}

function assertValidKOptions(options: AdaptiveKOptions): void {
  const kMin = options.kMin ?? DEFAULT_K_MIN;
  const kMax = options.kMax ?? DEFAULT_K_MAX;
  if (!Number.isInteger(kMin) || !Number.isInteger(kMax) || kMin < 1 || kMax < kMin) {
    throw new ScratchpadError('CONFIG_INVALID', `invalid pre-filter K bounds: k_min ${kMin}, k_max ${kMax}`, {
      hint: 'use integers with 1 <= k_min <= k_max (defaults 5 and 40)',
    });
  }
}

function addPosting(postings: Map<string, number[]>, token: string, index: number, weight: number): void {
  const list = postings.get(token);
  if (list) list.push(index, weight);
  else postings.set(token, [index, weight]);
}
