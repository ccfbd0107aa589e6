import { escapeRegex } from './escape-regex.js';

/**
 * Full-text search over scripts written without spaces between words, and across chunk boundaries.
 *
 * Japanese, Chinese, Thai, Lao, Khmer and Myanmar run words together, and Korean attaches particles to words
 * (`검색을`), so a tokenizer that splits at spaces and punctuation makes one token of a whole phrase, and
 * `エラー` is not found in `エラーが発生しました`. The indexed backends (SQLite FTS5, PostgreSQL) therefore index
 * every character of these scripts as a word of its own ({@link segmentScripts} puts a zero-width space, which
 * both tokenizers treat as a break, around each), and segment a query word the same way, so it becomes a phrase
 * of consecutive characters: a search finds any run of them, of any length, as the scanning search does.
 * Characters are a coarser unit than a dictionary's words: a query also matches the same run inside a longer
 * word, which the scanning search does too.
 *
 * Content is stored and indexed in chunks, and a chunk boundary may fall inside a word. Each chunk is indexed
 * after the end of the text before it ({@link seamPrefix}: the run of non-space characters it ends with, at most
 * {@link SEAM_CHARS}), so a word cut by the boundary is whole in the second chunk's index row. A word is found
 * wherever it is if it is at most {@link SEAM_CHARS} characters long and no longer than a chunk.
 */

/** The break put around each character of the {@link SEGMENTED_RANGES}: U+200B ZERO WIDTH SPACE. */
export const SEGMENT_BREAK = '\u200b';

/** Code point ranges (inclusive) whose characters are indexed one by one. */
const SEGMENTED_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0e00, 0x0eff], // Thai, Lao
  [0x1000, 0x109f], // Myanmar
  [0x1100, 0x11ff], // Hangul Jamo
  [0x1780, 0x17ff], // Khmer
  [0x2e80, 0x2fdf], // CJK and Kangxi radicals
  [0x3005, 0x3007], // 々 〆 〇
  [0x3021, 0x3029], // Hangzhou numerals
  [0x3040, 0x30ff], // Hiragana, Katakana (with ー)
  [0x3130, 0x318f], // Hangul compatibility Jamo
  [0x31f0, 0x31ff], // Katakana phonetic extensions
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xac00, 0xd7af], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xff66, 0xff9f], // Halfwidth Katakana
  [0x20000, 0x3134f], // CJK extensions B to G
];

/** Longest run of characters before a chunk that its index row starts with (see {@link seamPrefix}). */
export const SEAM_CHARS = 255;

/** The {@link SEGMENTED_RANGES} as the body of a regular-expression class, `\u{…}` escapes (JavaScript's `u` mode). */
function javascriptClass(): string {
  const hex = (code: number) => `\\u{${code.toString(16)}}`;
  return SEGMENTED_RANGES.map(([first, last]) => `${hex(first)}-${hex(last)}`).join('');
}

const SEGMENTED = new RegExp(`[${javascriptClass()}]`, 'gu');
const BREAKS = new RegExp(SEGMENT_BREAK, 'g');

/** `text` with a {@link SEGMENT_BREAK} before and after each character of the segmented scripts. */
export function segmentScripts(text: string): string {
  return text.replace(SEGMENTED, `${SEGMENT_BREAK}$&${SEGMENT_BREAK}`);
}

/** `text` without the breaks {@link segmentScripts} put in (a snippet cut from segmented text reads as written). */
export function unsegmentScripts(text: string): string {
  return text.replace(BREAKS, '');
}

/**
 * What the index row of the chunk after `previous` (the text of the chunk before it) starts with: the run of
 * non-space characters `previous` ends with, at most its last {@link SEAM_CHARS} characters; `''` when it ends
 * with a space.
 */
export function seamPrefix(previous: string): string {
  // SEAM_CHARS code points are at most twice as many UTF-16 units.
  const tail = Array.from(previous.slice(-2 * SEAM_CHARS))
    .slice(-SEAM_CHARS)
    .join('');
  return /\S*$/u.exec(tail)?.[0] ?? '';
}

/**
 * The {@link SEGMENTED_RANGES} as a PostgreSQL regular-expression bracket expression (the characters themselves:
 * its `\u` escapes stop at four hex digits), for the server-side segmentation of the PostgreSQL store.
 */
export function postgresSegmentedClass(): string {
  return `[${SEGMENTED_RANGES.map(([first, last]) => `${String.fromCodePoint(first)}-${String.fromCodePoint(last)}`).join('')}]`;
}

const SEGMENTED_ONE = new RegExp(`[${javascriptClass()}]`, 'u');
/** A marker around one character of the segmented scripts, as a highlighter that marks tokens puts it. */
const MARKED_CHARACTER = new RegExp(`\\[([${javascriptClass()}])\\]`, 'gu');

/**
 * `snippet` with its `[…]` marks made true for query words of the segmented scripts: a highlighter that marks
 * tokens (PostgreSQL's `ts_headline`) marks every occurrence of each character of such a word, alone too (`[า]ร`
 * for the `า` of `ค้นหา`). Those one-character marks are taken out and each occurrence of the word itself is
 * marked instead, case-insensitively. A snippet when no term is of those scripts is returned as it is.
 */
export function markSegmentedTerms(snippet: string, terms: readonly string[]): string {
  const segmented = terms.filter((term) => SEGMENTED_ONE.test(term));
  if (segmented.length === 0) return snippet;
  const unmarked = snippet.replace(MARKED_CHARACTER, '$1');
  return unmarked.replace(new RegExp(segmented.map(escapeRegex).join('|'), 'giu'), (found) => `[${found}]`);
}
