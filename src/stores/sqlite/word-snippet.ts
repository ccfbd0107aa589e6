/** Characters of a word, as `queryTerms` reads them. */
const WORD = '[\\p{L}\\p{M}\\p{N}_]';
/** Scripts the index segments into single characters (no word boundaries there): left to FTS5's own snippet. */
const SEGMENTED_SCRIPT =
  /[\u0e00-\u0eff\u1000-\u109f\u1100-\u11ff\u1780-\u17ff\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]|[\ud840-\ud88c][\udc00-\udfff]/;
/** Words shown before the match, and in all. */
const BEFORE_WORDS = 8;
const TOTAL_WORDS = 24;
/** Characters looked at on each side of the match for those words (a word longer than this is cut). */
export const SIDE_CHARS = 400;

/** A place where one of the query's words stands as a whole word: where it starts, and the text matched. */
export interface WordPlace {
  start: number;
  matched: string;
}

/** The query words a snippet can be cut around: non-empty, and not of a segmented script. */
export function plainTerms(terms: readonly string[]): string[] {
  return terms.filter((term) => term.length > 0 && !SEGMENTED_SCRIPT.test(term));
}

/**
 * The pattern of any of `plain` (from {@link plainTerms}) standing as a whole word: not preceded or followed by a
 * word character. Match it with the `iu` flags (plus `y` or `g`).
 */
export function wordPattern(plain: readonly string[]): string {
  const escaped = plain.map((term) => term.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'));
  return `(?<!${WORD})(?:${escaped.join('|')})(?!${WORD})`;
}

/**
 * A snippet of `text` around the first place one of `terms` (lowercased query words) stands as a whole word, the
 * word marked `[…]`, about {@link TOTAL_WORDS} words on one line, `…` where it is cut; `undefined` when no term is
 * there as written (a diacritic or case form the index folds, a word of a segmented script): the caller then asks
 * FTS5, which re-tokenizes the whole chunk. Finding the word in the chunk's text costs a fraction of that.
 */
export function wordSnippet(text: string, terms: readonly string[]): string | undefined {
  const plain = plainTerms(terms);
  if (plain.length === 0) return undefined;
  const match = new RegExp(wordPattern(plain), 'iu').exec(text);
  if (!match) return undefined;
  return snippetAround(text, { start: match.index, matched: match[0] }, plain, {
    atStart: true,
    atEnd: true,
  });
}

/**
 * The snippet around `place` in `text`, a window of a longer text or all of it: `atStart` and `atEnd` say whether
 * the window starts and ends where the text does. A window that does not must hold at least {@link SIDE_CHARS}
 * characters on that side of the match, so the snippet is the one the whole text gives.
 */
export function snippetAround(
  text: string,
  place: WordPlace,
  plain: readonly string[],
  window: { atStart: boolean; atEnd: boolean },
): string {
  const source = wordPattern(plain);
  const start = place.start;
  const end = start + place.matched.length;
  const before = text.slice(Math.max(0, start - SIDE_CHARS), start).split(/\s+/);
  const after = text.slice(end, end + SIDE_CHARS).split(/\s+/);
  // The word the match is in continues on each side up to the nearest space.
  const shownBefore = before.slice(-(BEFORE_WORDS + 1));
  const shownAfter = after.slice(0, TOTAL_WORDS - shownBefore.length + 1);
  const cutBefore = shownBefore.length < before.length || !window.atStart || start - SIDE_CHARS > 0;
  const cutAfter = shownAfter.length < after.length || !window.atEnd || end + SIDE_CHARS < text.length;
  // Every query word in the window is marked, as FTS5's snippet() marks them.
  const snippet = `${shownBefore.join(' ')}${place.matched}${shownAfter.join(' ')}`
    .replace(new RegExp(source, 'giu'), '[$&]')
    .replace(/\s+/g, ' ')
    .trim();
  return `${cutBefore ? '…' : ''}${snippet}${cutAfter ? '…' : ''}`;
}
