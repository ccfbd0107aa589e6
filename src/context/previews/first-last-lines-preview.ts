import { codePointLength } from '../../core/utf8.js';
import { codePointPrefix } from './code-points.js';

/** Options for {@link firstLastLinesPreview}. */
export interface FirstLastLinesPreviewOptions {
  /** Lines shown from the start (default 5). */
  head?: number;
  /** Lines shown from the end (default 5). */
  tail?: number;
  /** Each shown line is clipped to this many characters (default 1,000). */
  maxLineChars?: number;
}

// Python's str.splitlines() boundaries: the preview splits lines the way LangChain deepagents does.
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Splits like Python's `str.splitlines()`: no empty last line after a trailing line break. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(LINE_BREAK);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * LangChain deepagents' eviction preview: the first 5 and last 5 lines, `cat -n` numbered (6 wide, then a tab),
 * each clipped to 1,000 characters, with `... [N lines truncated] ...` between them. Ten lines or fewer are all shown.
 */
export function firstLastLinesPreview(text: string, options: FirstLastLinesPreviewOptions = {}): string {
  const head = options.head ?? 5;
  const tail = options.tail ?? 5;
  const maxLineChars = options.maxLineChars ?? 1000;
  const lines = splitLines(text);
  const clip = (line: string) =>
    codePointLength(line) > maxLineChars ? codePointPrefix(line, maxLineChars) : line;
  const numbered = (shown: string[], first: number) =>
    shown.map((line, index) => `${String(first + index).padStart(6)}\t${clip(line)}`).join('\n');
  if (lines.length <= head + tail) return numbered(lines, 1);
  const omitted = lines.length - head - tail;
  const last = lines.length - tail + 1;
  return `${numbered(lines.slice(0, head), 1)}\n... [${omitted} lines truncated] ...\n${numbered(lines.slice(lines.length - tail), last)}`;
}
