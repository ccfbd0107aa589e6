import { escapeRegex } from '../../core/escape-regex.js';
import type { SampledLine } from './content-sample.js';

/** Options for {@link taskLines}. */
export interface TaskLinesOptions {
  /** Most lines returned (default 12). */
  maxLines?: number;
  /** Most lines returned per word (default 3). */
  perWord?: number;
}

// Words of a request that say what to do, not what to look for.
const STOPWORDS = new Set(
  `about above after again also and any are because been before being below between both but can cannot check
  could did does doing done down during each few find fix for from further get got had has have having here how
  into its itself just keep know last let like look looks make many might more most much must need needs not now
  off once only other our out over own please read report same see should show some such sure tell than that the
  their them then there these they this those through too under until use used using very want was were what
  when where which while who whom why will with would you your data file files output result results run line
  lines`.split(/\s+/),
);
const MAX_WORDS = 64;

/**
 * The lines that mention what the task asks about: the task's words (four letters or more, stopwords left out)
 * that only a few lines contain (at most 5, or 2% of the lines), rarest first (then the longest), with up to
 * `perWord` lines each.
 * Words found on many lines say nothing about where to look. Returns indexes into `lines`.
 */
export function taskLines(
  lines: readonly SampledLine[],
  task: string | undefined,
  options: TaskLinesOptions = {},
): number[] {
  const maxLines = options.maxLines ?? 12;
  const perWord = options.perWord ?? 3;
  const words = taskWords(task ?? '');
  if (words.length === 0 || lines.length === 0) return [];
  const limit = Math.max(5, Math.floor(lines.length * 0.02));
  // A word on more lines than the limit says nothing: it is dropped from the search as soon as it passes it.
  let live = words;
  let patterns = searchPatterns(live);
  const found = new Map<string, { whole: number[]; part: number[] }>();
  const saturated = new Set<string>();
  for (let index = 0; index < lines.length && live.length > 0; index++) {
    const raw = (lines[index] as SampledLine).text;
    const text = raw.length > 2000 ? raw.slice(0, 2000) : raw;
    if (!patterns.quick.test(text)) continue;
    for (const match of text.matchAll(patterns.exact)) {
      const word = match[0].toLowerCase();
      if (saturated.has(word)) continue;
      const at = found.get(word) ?? { whole: [], part: [] };
      const before = text[match.index - 1];
      const after = text[match.index + match[0].length];
      const whole =
        (before === undefined || /\s/.test(before)) && (after === undefined || /[\s:,;]/.test(after));
      // Lines come in order: a line already listed for this word is the last one listed. Per word, the lines
      // where it is a whole token (`openssl` in `ii  openssl  3.0.19`) come before the lines where it is part of one
      // (`libgnutls-openssl27`): a listing names the thing itself on the first kind.
      if (at.whole[at.whole.length - 1] !== index && at.part[at.part.length - 1] !== index) {
        (whole ? at.whole : at.part).push(index);
      }
      found.set(word, at);
      if (at.whole.length + at.part.length > limit) saturated.add(word);
    }
    if (saturated.size > 0 && live.some((word) => saturated.has(word))) {
      live = live.filter((word) => !saturated.has(word));
      if (live.length > 0) patterns = searchPatterns(live);
    }
  }
  const chosen: number[] = [];
  const ranked = [...found]
    .map(([word, at]) => ({ word, at: [...at.whole, ...at.part] }))
    .filter(({ at }) => at.length <= limit)
    .sort((a, b) => a.at.length - b.at.length || b.word.length - a.word.length);
  for (const { at } of ranked) {
    for (const index of at.slice(0, perWord)) {
      if (chosen.length === maxLines) return chosen;
      if (!chosen.includes(index)) chosen.push(index);
    }
  }
  return chosen;
}

/** A plain case-insensitive test, then the exact match (whole words, any script) on the lines that pass it. */
function searchPatterns(words: readonly string[]): { quick: RegExp; exact: RegExp } {
  const alternatives = words.map(escapeRegex).join('|');
  return {
    quick: new RegExp(alternatives, 'i'),
    exact: new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives})(?![\\p{L}\\p{N}_])`, 'giu'),
  };
}

/** The task's distinct words worth searching for, the most specific first (names with `_`, `.` or digits, then the longest). */
function taskWords(task: string): string[] {
  const words = new Set<string>();
  for (const match of task.matchAll(/[\p{L}\p{N}_](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}_])?/gu)) {
    const word = match[0].toLowerCase();
    if (word.length >= 4 && !STOPWORDS.has(word) && !/^\d+$/.test(word)) words.add(word);
  }
  const specific = (word: string) => (/[_.\d]/.test(word) ? 1 : 0);
  return [...words].sort((a, b) => specific(b) - specific(a) || b.length - a.length).slice(0, MAX_WORDS);
}
