/**
 * The pre-tokenizer patterns of o200k and cl100k, decided by hand for ASCII text. Running the pattern (a regular
 * expression of Unicode property classes) was most of the time of counting a log: 2 MB of log is about 830,000
 * words, and the pattern alone took ~130 of the ~140 ms the whole count took. These functions answer the same
 * match from character codes, without a match object or a string.
 *
 * Each returns where the word that starts at `start` ends (what the pattern, run from `start`, matches there: the
 * patterns match at every position, so words tile the text), or -1 when the answer depends on a character
 * outside ASCII (a letter, digit, space or mark class this code does not know); the caller then runs the pattern
 * itself from `start`. ASCII classes as JavaScript's `u` patterns see them: `\s` is tab, line feed, vertical tab,
 * form feed, carriage return and space; `\p{L}` is A–Z and a–z (`\p{Lu}` and `\p{Ll}`); `\p{N}` is 0–9.
 */
export type AsciiWordEnd = (text: string, start: number) => number;

/**
 * o200k_base:
 * `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`
 * `|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'(…))?|\p{N}{1,3}`
 * `| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
 */
export function o200kWordEnd(text: string, start: number): number {
  const first = classAt(text, start);
  if (first === NON_ASCII) return -1;
  if (first === UPPER || first === LOWER) return o200kLetters(text, start);
  if (first === DIGIT) return digitsEnd(text, start);
  if (first !== LINE_BREAK) {
    // A letter after one character that is neither a line break, a letter nor a digit belongs to the same word.
    const second = classAt(text, start + 1);
    if (second === NON_ASCII) return -1;
    if (second === UPPER || second === LOWER) return o200kLetters(text, start + 1);
    const others = punctuationEnd(text, start, first, second);
    if (others !== 0) return others < 0 ? -1 : trailing(text, others, true);
  }
  return whitespaceEnd(text, start, O200K_SPACES);
}

/**
 * cl100k_base:
 * `'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}`
 * `| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s`
 */
export function cl100kWordEnd(text: string, start: number): number {
  const first = classAt(text, start);
  if (first === NON_ASCII) return -1;
  if (text.charCodeAt(start) === APOSTROPHE) {
    const contraction = contractionEnd(text, start);
    if (contraction > start) return contraction;
  }
  if (first === UPPER || first === LOWER) return lettersEnd(text, start);
  if (first === DIGIT) return digitsEnd(text, start);
  if (first !== LINE_BREAK) {
    const second = classAt(text, start + 1);
    if (second === NON_ASCII) return -1;
    if (second === UPPER || second === LOWER) return lettersEnd(text, start + 1);
    const others = punctuationEnd(text, start, first, second);
    if (others !== 0) return others < 0 ? -1 : trailing(text, others, false);
  }
  return whitespaceEnd(text, start, CL100K_SPACES);
}

// Character classes (END: past the text's end).
const END = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const LINE_BREAK = 4;
const SPACE = 5;
const OTHER = 6;
const NON_ASCII = 7;

const APOSTROPHE = 0x27;
const SLASH = 0x2f;

/** The class of each ASCII code. */
const ASCII_CLASSES = (() => {
  const classes = new Uint8Array(128).fill(OTHER);
  for (let code = 0x41; code <= 0x5a; code += 1) classes[code] = UPPER;
  for (let code = 0x61; code <= 0x7a; code += 1) classes[code] = LOWER;
  for (let code = 0x30; code <= 0x39; code += 1) classes[code] = DIGIT;
  for (const code of [0x09, 0x0b, 0x0c, 0x20]) classes[code] = SPACE;
  classes[0x0a] = LINE_BREAK;
  classes[0x0d] = LINE_BREAK;
  return classes;
})();

function classAt(text: string, index: number): number {
  if (index >= text.length) return END;
  const code = text.charCodeAt(index);
  return code < 0x80 ? (ASCII_CLASSES[code] as number) : NON_ASCII;
}

/**
 * o200k's two letter branches from `index` (after the optional prefix): upper case then at least one lower case
 * letter, or (when no lower case follows) the upper case run alone; then an optional contraction.
 */
function o200kLetters(text: string, index: number): number {
  let end = index;
  let next = classAt(text, end);
  while (next === UPPER) {
    end += 1;
    next = classAt(text, end);
  }
  while (next === LOWER) {
    end += 1;
    next = classAt(text, end);
  }
  if (next === NON_ASCII) return -1;
  return contractionEnd(text, end);
}

/** The end of the run of letters from `index`; -1 when a character outside ASCII ends it. */
function lettersEnd(text: string, index: number): number {
  let end = index;
  let next = classAt(text, end);
  while (next === UPPER || next === LOWER) {
    end += 1;
    next = classAt(text, end);
  }
  return next === NON_ASCII ? -1 : end;
}

/** `\p{N}{1,3}` from `index` (a digit). */
function digitsEnd(text: string, index: number): number {
  let end = index + 1;
  while (end < index + 3) {
    const next = classAt(text, end);
    if (next === NON_ASCII) return -1;
    if (next !== DIGIT) break;
    end += 1;
  }
  return end;
}

/**
 * ` ?[^\s\p{L}\p{N}]+` from `start` (whose class is `first`, the next one's `second`): the end of the run of
 * other characters, 0 when the branch does not match, -1 when a character outside ASCII decides.
 */
function punctuationEnd(text: string, start: number, first: number, second: number): number {
  let index: number;
  if (first === OTHER) index = start + 1;
  else if (text.charCodeAt(start) === 0x20 && second === OTHER) index = start + 2;
  else return 0;
  let next = classAt(text, index);
  while (next === OTHER) {
    index += 1;
    next = classAt(text, index);
  }
  return next === NON_ASCII ? -1 : index;
}

/** `index` moved past the line breaks (and slashes, with `slashes`: o200k's `[\r\n/]*`) that follow it. */
function trailing(text: string, index: number, slashes: boolean): number {
  let end = index;
  for (;;) {
    const code = text.charCodeAt(end);
    if (code === 0x0a || code === 0x0d || (slashes && code === SLASH)) end += 1;
    else return end;
  }
}

/** An optional `'s`, `'t`, `'re`, `'ve`, `'m`, `'ll` or `'d` (either case) at `index`: where it ends. */
function contractionEnd(text: string, index: number): number {
  if (text.charCodeAt(index) !== APOSTROPHE) return index;
  const letter = text.charCodeAt(index + 1) | 0x20;
  if (letter === 0x73 || letter === 0x64 || letter === 0x6d || letter === 0x74) return index + 2;
  const second = text.charCodeAt(index + 2) | 0x20;
  if ((letter === 0x6c && second === 0x6c) || ((letter === 0x76 || letter === 0x72) && second === 0x65)) {
    return index + 3;
  }
  return index;
}

const O200K_SPACES = 0;
const CL100K_SPACES = 1;

/**
 * The whitespace branches from `start` (a space or line break; the branches before them did not match).
 * o200k: `\s*[\r\n]+|\s+(?!\S)|\s+`; cl100k: `\s+$|\s*[\r\n]|\s+(?!\S)|\s`. Either way a run holding a line
 * break ends after its last one (cl100k: unless the run ends the text), and a run followed by a non-space keeps
 * its last character for the next word (which then starts with it).
 */
function whitespaceEnd(text: string, start: number, encoding: number): number {
  let end = start;
  let lastBreak = -1;
  let next = classAt(text, end);
  while (next === SPACE || next === LINE_BREAK) {
    if (next === LINE_BREAK) lastBreak = end;
    end += 1;
    next = classAt(text, end);
  }
  if (next === NON_ASCII) return -1;
  if (encoding === CL100K_SPACES && next === END) return end;
  if (lastBreak >= 0) return lastBreak + 1;
  if (next === END || end - start === 1) return end;
  return end - 1;
}
