/**
 * Cuts text into pieces a BPE tokenizer can count one by one in linear total time.
 *
 * A BPE tokenizer first splits text into words (pre-tokens) and then merges each word's bytes, which costs more
 * than linear time in the word's length (the square of it in gpt-tokenizer: 100,000 × `x` or 400 KB of letters
 * without a space are one word each and take it minutes). Counting piece by piece bounds every word.
 *
 * Pieces end, where possible, just before a space that sits between two non-space characters (`foo| bar`): every
 * pre-tokenizer pattern of the GPT encodings ends a word before such a space and starts the next one with it, so
 * the pieces' counts add up to the count of the whole text exactly. Where no such space comes within
 * {@link TOKEN_RUN_LIMIT} characters (a long word, a run of spaces, minified code), the piece is cut there anyway,
 * between two graphemes; each such cut can change the total by a token or so.
 */

/** Target length of a piece, in UTF-16 code units (a piece ends at the last clean cut before this). */
export const TOKEN_PIECE_LENGTH = 4096;

/**
 * The longest stretch without a clean cut that goes to the tokenizer in one piece. Longer runs cost more per
 * character (the merge heap is deeper and leaves the CPU's caches): 2 MB of random letters took 155 ms of CPU in
 * runs of 128, 221 ms in runs of 512, 394 ms in runs of 4,096 (`loadBpeCount`); each cut can change the count by a
 * token or so, 0.2% of a run's characters at most.
 */
export const TOKEN_RUN_LIMIT = 512;

/** The end (exclusive) of the piece of `text` that starts at `start`; `text.length` for the last piece. */
export function tokenPieceEnd(text: string, start: number): number {
  const length = text.length;
  if (length - start <= TOKEN_RUN_LIMIT) return length;
  const limit = Math.min(length, start + TOKEN_PIECE_LENGTH);
  let lastClean = -1;
  let runStart = start;
  for (let index = start + 1; index < limit; index += 1) {
    if (isCleanCut(text, index)) {
      lastClean = index;
      runStart = index;
    } else if (index - runStart >= TOKEN_RUN_LIMIT) {
      // A long stretch without a clean cut: end the piece before it if it started after one, else cut inside it.
      return lastClean > start ? lastClean : graphemeCut(text, index, start);
    }
  }
  if (limit === length) return length;
  return lastClean > start ? lastClean : graphemeCut(text, limit, start);
}

/** Splits `text` into its pieces (see {@link tokenPieceEnd}). */
export function* tokenPieces(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    const end = tokenPieceEnd(text, start);
    yield text.slice(start, end);
    start = end;
  }
}

const SPACE = 0x20;

/** A space with a non-space on both sides: the pre-tokenizer ends a word just before it. */
function isCleanCut(text: string, index: number): boolean {
  return (
    text.charCodeAt(index) === SPACE &&
    !isWhitespace(text.charCodeAt(index - 1)) &&
    index + 1 < text.length &&
    !isWhitespace(text.charCodeAt(index + 1))
  );
}

function isWhitespace(code: number): boolean {
  return (
    code === SPACE || (code >= 0x09 && code <= 0x0d) || (code > 0x7f && /\s/.test(String.fromCharCode(code)))
  );
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const GRAPHEME_WINDOW = 64;

/**
 * A grapheme boundary at or before `index` and after `start` (the window around `index` is segmented, never the
 * whole text); `index` moved off a surrogate pair when the grapheme is longer than the window.
 */
function graphemeCut(text: string, index: number, start: number): number {
  const windowStart = Math.max(start, index - GRAPHEME_WINDOW);
  const window = text.slice(windowStart, Math.min(text.length, index + GRAPHEME_WINDOW));
  const boundary = windowStart + (segmenter.segment(window).containing(index - windowStart)?.index ?? 0);
  if (boundary > start && boundary > windowStart) return boundary;
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index + 1 : index;
}
