import { sampleByteCounts } from '../../core/byte-counts.js';
import { RegionCopy, SimdNeedle, simdAvailable } from '../../core/simd-needle.js';
import { plainTerms, SIDE_CHARS, snippetAround, wordPattern, wordSnippet } from './word-snippet.js';

/**
 * Bytes decoded on each side of the match for the snippet: enough for {@link SIDE_CHARS} characters (a UTF-16
 * unit of decoded text takes at most 3 bytes, an invalid byte run included), plus the few bytes at the far end
 * that may decode otherwise than in the whole text (see {@link characterStart}).
 */
const SIDE_BYTES = 3 * SIDE_CHARS + 8;
/** Bytes of the chunk's start counted to pick each needle's rarest two bytes. */
const SAMPLE_BYTES = 4096;
/**
 * Under the `iu` flags an ASCII letter matches itself in either case, and `k` and `s` also match K U+212A and ſ
 * U+017F (no other character folds to ASCII; `byte-snippet.test.ts` checks every code point).
 */
const WIDE_FOLDS = /[ks]/;

/** Where `text` is copied into WebAssembly memory for the needles (one search at a time: JavaScript is single-threaded). */
const copies = new RegionCopy();

/**
 * {@link wordSnippet} of the UTF-8 `bytes`, decoding only what the snippet shows: the query's words are looked for
 * in the bytes (WebAssembly SIMD, ASCII case folded), each place found is checked with the same pattern on a few
 * bytes decoded around it, and only the text around the first place that holds is decoded. A 256 KiB chunk decoded
 * whole took most of a rare word's search. Falls back to decoding everything when a word is not ASCII, holds no
 * run of letters without `k` or `s`, or WebAssembly SIMD is not available.
 */
export function wordSnippetOfBytes(bytes: Buffer, terms: readonly string[]): string | undefined {
  const plain = plainTerms(terms);
  if (plain.length === 0) return undefined;
  const anchors = plain.map(anchorOf);
  if (!simdAvailable() || anchors.some((anchor) => anchor === undefined)) {
    return wordSnippet(bytes.toString('utf8'), terms);
  }
  const pattern = new RegExp(wordPattern(plain), 'iuy');
  const longest = Math.max(...plain.map((term) => term.length));
  const counts = sampleByteCounts(bytes.subarray(0, SAMPLE_BYTES), true);
  copies.startRegion();
  const needles = (anchors as Anchor[]).map((anchor) => ({
    ...anchor,
    needle: new SimdNeedle(Buffer.from(anchor.run, 'latin1'), counts, true, copies),
    next: -2,
  }));
  const length = bytes.byteLength;
  // Every match starts in some needle's range [hit - 3 × before, hit - before]: test the ranges lowest first.
  for (;;) {
    let lowest: (typeof needles)[number] | undefined;
    for (const needle of needles) {
      if (needle.next === -2) needle.next = needle.needle.next(bytes, 0, length);
      if (needle.next === -1) continue;
      if (!lowest || rangeStart(needle) < rangeStart(lowest)) lowest = needle;
    }
    if (!lowest) return undefined;
    for (let start = rangeStart(lowest); start <= lowest.next - lowest.before; start++) {
      const matched = matchAt(bytes, start, pattern, longest);
      if (matched !== undefined) return snippetAt(bytes, start, matched, plain);
    }
    lowest.next = lowest.needle.next(bytes, lowest.next + 1, length);
  }
}

/** The longest run of a word without `k` or `s` (found ignoring ASCII case), and the characters before it. */
interface Anchor {
  run: string;
  before: number;
}

function anchorOf(term: string): Anchor | undefined {
  if (!/^[\u0000-\u007f]+$/.test(term)) return undefined;
  let best: Anchor | undefined;
  let from = 0;
  for (const piece of term.split(WIDE_FOLDS)) {
    if (piece.length > (best?.run.length ?? 0)) best = { run: piece, before: from };
    from += piece.length + 1;
  }
  return best;
}

/** Where the needle's range starts: its hit, less 3 bytes for each character before its run (K is 3 bytes). */
function rangeStart(anchor: Anchor & { next: number }): number {
  return Math.max(0, anchor.next - 3 * anchor.before);
}

/**
 * The text of the pattern's match starting at byte `start`, if one does. Decoded from the character before (for
 * the look-behind) through the longest word and the 4 bytes of the character after it (for the look-ahead: bytes
 * past those may decode otherwise than in the whole text, cut where they are); a start inside a character (a
 * continuation byte) starts no match.
 */
function matchAt(bytes: Buffer, start: number, pattern: RegExp, longest: number): string | undefined {
  if (isContinuation(bytes, start)) return undefined;
  const from = characterStart(bytes, start - 1);
  const to = Math.min(bytes.byteLength, start + 3 * longest + 4);
  const before = bytes.toString('utf8', from, start);
  const text = before + bytes.toString('utf8', start, to);
  pattern.lastIndex = before.length;
  const match = pattern.exec(text);
  if (!match) return undefined;
  // A match that ends where the decoded bytes end may go on past them: only the end of the chunk ends it.
  if (match.index + match[0].length >= text.length && to < bytes.byteLength) return undefined;
  return match[0];
}

/** The snippet around `matched`, which starts at byte `start`, from the bytes around it alone. */
function snippetAt(bytes: Buffer, start: number, matched: string, plain: readonly string[]): string {
  const end = start + Buffer.byteLength(matched);
  const from = characterStart(bytes, start - SIDE_BYTES);
  const to = characterStart(bytes, end + SIDE_BYTES);
  const before = bytes.toString('utf8', from, start);
  const text = before + matched + bytes.toString('utf8', end, to);
  return snippetAround(text, { start: before.length, matched }, plain, {
    atStart: from === 0,
    atEnd: to === bytes.byteLength,
  });
}

/**
 * `position` moved back to the start of the character it is in (0 and the end stay): past at most 3 continuation
 * bytes, as many as a character has. UTF-8 decoding starts over at any other byte, so text decoded from there is
 * the whole text's from there; from a continuation byte (a run of invalid bytes), only the first 3 bytes decoded
 * may differ, and at a cut end, the last 3.
 */
function characterStart(bytes: Buffer, position: number): number {
  if (position <= 0) return 0;
  if (position >= bytes.byteLength) return bytes.byteLength;
  let at = position;
  while (at > position - 3 && isContinuation(bytes, at)) at--;
  return at;
}

function isContinuation(bytes: Buffer, at: number): boolean {
  return ((bytes[at] as number) & 0xc0) === 0x80;
}
