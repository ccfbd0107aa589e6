/** A kind of line: the words its lines share, with `<*>` where they vary. */
export interface LineKind {
  /** The template's words; `<*>` marks a position that varies (numbers, ids, dates, names). */
  template: string[];
  /** Lines of this kind. */
  count: number;
  /** Indexes (into the lines given) of its first lines, at most three. */
  examples: number[];
}

/** The kinds of a list of lines and the kind of each line (-1 for a blank line, or one past the kinds' cap). */
export interface LineKinds {
  kinds: LineKind[];
  kindOf: Int32Array;
}

/** `<*>`: a position whose word varies from line to line. */
export const VARIABLE = '<*>';

const MAX_WORDS = 48;
const MAX_KINDS_PER_BUCKET = 24;
const MIN_SIMILARITY = 0.6;
const MAX_EXACT = 4096;
const MAX_KINDS = 2000;
const CALENDAR_WORDS = new Set(
  'jan feb mar apr may jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun am pm utc gmt'.split(' '),
);

/**
 * Groups lines into kinds the way log parsers do (after Drain, He et al. 2017): words with a digit, calendar words
 * and very long words are variables; lines with the same number of words and the same first three fixed words
 * join the first kind they match in at least 60% of their positions, and the positions that differ become
 * variables. A 2,000-line log of a dozen message types gives about a dozen kinds; text that does not repeat
 * (source code, prose) gives about one kind per line, up to 2,000 kinds (past them, a line that joins none gets
 * none).
 * Linear in the lines (a bounded number of comparisons each).
 */
export function mineLineKinds(lines: readonly string[]): LineKinds {
  const kinds: LineKind[] = [];
  const kindOf = new Int32Array(lines.length).fill(-1);
  const exact = new Map<string, number>();
  const buckets = new Map<string, number[]>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const words = maskedWords(line);
    if (words.length === 0) continue;
    const key = words.join(' ');
    let kind = exact.get(key);
    if (kind === undefined) {
      const bucketKey = `${words.length}|${fixedWords(words)}`;
      const bucket = buckets.get(bucketKey) ?? [];
      kind = bucket.find((candidate) => merge(kinds[candidate] as LineKind, words));
      if (kind === undefined) {
        // Text this varied is not a log: past the cap, a line that joins no kind gets none.
        if (kinds.length >= MAX_KINDS) continue;
        kind = kinds.length;
        kinds.push({ template: words, count: 0, examples: [] });
        if (bucket.length < MAX_KINDS_PER_BUCKET) bucket.push(kind);
        buckets.set(bucketKey, bucket);
      }
      // Bounded memory: past this many distinct lines, new ones are matched through their bucket only.
      if (exact.size < MAX_EXACT) exact.set(key, kind);
    }
    const found = kinds[kind] as LineKind;
    found.count++;
    if (found.examples.length < 3) found.examples.push(index);
    kindOf[index] = kind;
  }
  return { kinds, kindOf };
}

/** The template as text: its words joined by spaces. */
export function templateText(kind: LineKind): string {
  return kind.template.join(' ');
}

/** The line's words (split on spaces and tabs), each word with a digit, a calendar word or a long word a variable. */
export function maskedWords(line: string): string[] {
  const length = Math.min(line.length, 2000);
  const words: string[] = [];
  let start = -1;
  let digit = false;
  for (let index = 0; index <= length && words.length < MAX_WORDS; index++) {
    const code = index < length ? line.charCodeAt(index) : 32;
    if (code === 32 || code === 9 || code === 13 || code === 12 || code === 11) {
      if (start !== -1) {
        words.push(digit || index - start > 40 ? VARIABLE : calendarOrWord(line.slice(start, index)));
        start = -1;
        digit = false;
      }
    } else {
      if (start === -1) start = index;
      if (code >= 48 && code <= 57) digit = true;
    }
  }
  return words;
}

/** A month, a weekday, am/pm or a time zone (brackets and commas around it allowed) is a variable. */
function calendarOrWord(word: string): string {
  if (word.length > 7) return word;
  const bare = /^\w+$/.test(word) ? word : word.replace(/^\W+|\W+$/g, '');
  return bare.length <= 4 && CALENDAR_WORDS.has(bare.toLowerCase()) ? VARIABLE : word;
}

/** The first three words that are fixed and contain a letter: lines of one kind start the same way. */
function fixedWords(words: readonly string[]): string {
  const fixed: string[] = [];
  for (const word of words) {
    if (word !== VARIABLE && /[A-Za-z]/.test(word)) fixed.push(word);
    if (fixed.length === 3) break;
  }
  return fixed.join(' ');
}

/** Joins `words` to `kind` when they agree in enough positions, turning the positions that differ into variables. */
function merge(kind: LineKind, words: readonly string[]): boolean {
  const template = kind.template;
  let same = 0;
  for (let index = 0; index < template.length; index++) {
    if (template[index] === VARIABLE || template[index] === words[index]) same++;
  }
  if (same < MIN_SIMILARITY * template.length || same === 0) return false;
  for (let index = 0; index < template.length; index++) {
    if (template[index] !== words[index]) template[index] = VARIABLE;
  }
  return true;
}
