import type { RankedEntry } from './sqlite-search.js';
import type { TurnBudget } from './turn-budget.js';

/**
 * What {@link rankInSlices} ranks with: one slice of chunk ids at a time, where the ids end, and (optionally) how
 * many chunks match at all.
 */
export interface SliceRanker {
  /** `matches`: how many chunks match in all, when the ranker counted them. */
  rank(from: number, to: number, limit: number, matches?: number): RankedEntry[] | Promise<RankedEntry[]>;
  lastChunk(): number | Promise<number>;
  matches?(): number | Promise<number>;
}

/** Chunk ids of the first slice; later slices grow or shrink so that each takes about {@link SLICE_MS}. */
const FIRST_SLICE = 256;
const SLICE_MS = 8;
/**
 * Matching chunks ranked in one slice when that is all there are: ranking takes a few microseconds per matching
 * chunk (about 4 ms for this many), and each slice costs a query of its own, most of a rare word's search.
 */
const ONE_SLICE_MATCHES = 1024;

/**
 * The best `limit` entries of a full-text query, ranked one slice of chunk ids at a time; between slices `turns`
 * yields the event loop once its budget is spent. Ranking reads the index rows of every matching chunk: a common word over a 1 GB session
 * matches thousands of chunks and held the loop for tens of milliseconds in one query. An entry's best chunk
 * lies in some slice, where the entry is among that slice's best `limit` if it is among the best `limit`
 * overall, so merging the slices' answers (each entry's best rank; ties by name) gives the one query's answer.
 * Each call of `rank` is one query (a read that waited for a lock counts its wait); the slice width doubles while slices take under half of
 * {@link SLICE_MS} and halves when one takes over twice that. When the ranker counts the matching chunks and there
 * are at most {@link ONE_SLICE_MATCHES}, one slice takes all ids.
 */
export async function rankInSlices(
  ranker: SliceRanker,
  limit: number,
  turns: TurnBudget,
): Promise<RankedEntry[]> {
  const last = await ranker.lastChunk();
  const best = new Map<string, RankedEntry>();
  const matches = ranker.matches ? await ranker.matches() : undefined;
  let width = matches !== undefined && matches <= ONE_SLICE_MATCHES ? last + 1 : FIRST_SLICE;
  for (let from = 0; from <= last; ) {
    const started = performance.now();
    const to = from + width;
    for (const ranked of await ranker.rank(from, to, limit, matches)) {
      // By name: slices are reads of their own, and an entry replaced between two of them shows up with its old
      // content in one and its new content in another; the newer version stands for it.
      const known = best.get(ranked.record.name);
      if (!known || isBetter(ranked, known)) best.set(ranked.record.name, ranked);
    }
    from = to;
    const elapsed = performance.now() - started;
    if (elapsed < SLICE_MS / 2) width *= 2;
    else if (elapsed > SLICE_MS * 2 && width > 1) width = Math.ceil(width / 2);
    if (from <= last) await turns.pause();
  }
  return [...best.values()]
    .sort((left, right) => left.rank - right.rank || compareNames(left, right))
    .slice(0, limit);
}

/** A newer version of the entry, or the same version through a better chunk. */
function isBetter(candidate: RankedEntry, known: RankedEntry): boolean {
  if (candidate.record.version !== known.record.version)
    return candidate.record.version > known.record.version;
  return candidate.rank < known.rank;
}

function compareNames(left: RankedEntry, right: RankedEntry): number {
  return left.record.name < right.record.name ? -1 : left.record.name > right.record.name ? 1 : 0;
}
