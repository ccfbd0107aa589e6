/** Options for {@link sampleContent}. */
export interface SampleOptions {
  /** Texts up to this many characters (UTF-16 units) and `maxLines` lines are read whole (default 768 KiB). */
  wholeLimit?: number;
  /** Characters read from the start of a longer text (default half of `wholeLimit`). */
  headChars?: number;
  /** Characters read from its end (default a quarter of `wholeLimit`). */
  tailChars?: number;
  /** Windows read between them (default 8), spread evenly, sharing what is left of `wholeLimit`. */
  middleWindows?: number;
  /** Most lines read (default 20,000), shared the same way: a text of very short lines is sampled too. */
  maxLines?: number;
}

/** One line of the content as a preview saw it. */
export interface SampledLine {
  /**
   * Where the line is: 1-based from the start; for the tail of a sampled text, negative from the end (-1 is the
   * last line, as in a `"-1:"` line read); `undefined` for a line from a middle window (not counted).
   */
  number: number | undefined;
  text: string;
  /** Which part of the text the line comes from. */
  part: 'head' | 'middle' | 'tail';
}

/** The lines a preview looks at: all of them, or for a long text a head, middle windows and a tail. */
export interface ContentSample {
  lines: SampledLine[];
  /** True when every line of the text is in `lines` (then `number` is always the line number). */
  complete: boolean;
  /** Characters (UTF-16 units) of the text. */
  totalChars: number;
  /** Characters the sample covers. */
  sampledChars: number;
}

const WHOLE_LIMIT = 768 * 1024;
const MAX_LINES = 20_000;

/**
 * The lines of `text` a preview reads, in bounded time: the whole text when it is short, otherwise whole lines
 * from a head window, a few evenly spread middle windows and a tail window (each cut back to line boundaries; a
 * line longer than its window is cut at the window's edge). The cost is O(wholeLimit) whatever the text's length,
 * so a 100 MB result is previewed as fast as a 1 MB one. A trailing `\n` does not make an empty last line.
 */
export function sampleContent(text: string, options: SampleOptions = {}): ContentSample {
  const wholeLimit = options.wholeLimit ?? WHOLE_LIMIT;
  const maxLines = options.maxLines ?? MAX_LINES;
  if (text.length <= wholeLimit) {
    const all = splitTextLines(text);
    if (all.length <= maxLines) {
      const lines = all.map((line, index): SampledLine => ({ number: index + 1, text: line, part: 'head' }));
      return { lines, complete: true, totalChars: text.length, sampledChars: text.length };
    }
  }
  const headChars = options.headChars ?? Math.floor(wholeLimit / 2);
  const tailChars = options.tailChars ?? Math.floor(wholeLimit / 4);
  const windows = options.middleWindows ?? 8;
  const lines: SampledLine[] = [];
  let sampledChars = 0;

  const headCut = lineEndBefore(text, headChars);
  const headAll = splitTextLines(text.slice(0, headCut));
  const headLines = headAll.slice(0, Math.floor(maxLines / 2));
  headLines.forEach((line, index) => {
    lines.push({ number: index + 1, text: line, part: 'head' });
  });
  const headEnd =
    headLines.length === headAll.length ? headCut : headLines.reduce((sum, line) => sum + line.length + 1, 0);
  sampledChars += headEnd;

  const tailStart = lineStartAfter(text, text.length - tailChars);
  const middleChars = Math.max(0, wholeLimit - headChars - tailChars);
  const windowChars = windows > 0 ? Math.floor(middleChars / windows) : 0;
  const span = tailStart - headEnd;
  for (let window = 0; window < windows && windowChars > 0 && span > windowChars; window++) {
    const at = headEnd + Math.floor(((window + 0.5) * span) / windows) - Math.floor(windowChars / 2);
    const start = lineStartAfter(text, Math.max(headEnd, at));
    const end = lineEndBefore(text, Math.min(tailStart, start + windowChars));
    if (end <= start) continue;
    const taken = splitTextLines(text.slice(start, end)).slice(0, Math.floor(maxLines / 4 / windows));
    for (const line of taken) lines.push({ number: undefined, text: line, part: 'middle' });
    sampledChars += Math.min(
      end - start,
      taken.reduce((sum, line) => sum + line.length + 1, 0),
    );
  }

  const tail = splitTextLines(text.slice(tailStart)).slice(-Math.floor(maxLines / 4));
  tail.forEach((line, index) => {
    lines.push({ number: index - tail.length, text: line, part: 'tail' });
  });
  sampledChars += Math.min(
    text.length - tailStart,
    tail.reduce((sum, line) => sum + line.length + 1, 0),
  );
  return { lines, complete: false, totalChars: text.length, sampledChars };
}

/** True when {@link sampleContent} reads all of `text` (short enough in characters and in lines). */
export function readsWhole(text: string, options: SampleOptions = {}): boolean {
  if (text.length > (options.wholeLimit ?? WHOLE_LIMIT)) return false;
  const maxLines = options.maxLines ?? MAX_LINES;
  let lines = text.length > 0 && !text.endsWith('\n') ? 1 : 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (++lines > maxLines) return false;
  }
  return true;
}

/** Splits on `\n` (a `\r` stays on its line, as the store counts lines); no empty last line after a final `\n`. */
export function splitTextLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The end of the last whole line before `limit` (just after its `\n`), or `limit` when no line ends before it. */
function lineEndBefore(text: string, limit: number): number {
  if (limit >= text.length) return text.length;
  const newline = text.lastIndexOf('\n', limit - 1);
  return newline === -1 ? limit : newline + 1;
}

/** The start of the first whole line at or after `from`, or `from` when no line starts within reach. */
function lineStartAfter(text: string, from: number): number {
  if (from <= 0) return 0;
  if (text.charCodeAt(from - 1) === 10) return from;
  // A line longer than 64 KiB is cut where the window starts rather than searched to its end.
  const newline = text.slice(from, from + 65_536).indexOf('\n');
  return newline === -1 ? from : from + newline + 1;
}
