import { formatCount } from '../../core/format.js';
import { decodeUtf8 } from '../../core/utf8.js';
import type { ChunkCursor } from '../reading/chunk-cursor.js';
import type { GrepResult } from '../types.js';

/** Lines around each match, merged into grep-style blocks, read with O(block) line lookups. */
export async function contextBlocks(
  cursor: ChunkCursor,
  matches: GrepResult['matches'],
  contextLines: number,
): Promise<NonNullable<GrepResult['blocks']>> {
  const matched = new Set(matches.map((match) => match.line));
  const windows: Array<{ first: number; last: number }> = [];
  for (const match of matches) {
    const first = Math.max(1, match.line - contextLines);
    const last = Math.min(cursor.record.lines, match.line + contextLines);
    const previous = windows[windows.length - 1];
    if (previous && first <= previous.last + 1) previous.last = Math.max(previous.last, last);
    else windows.push({ first, last });
  }
  const clipped = new Map(matches.map((match) => [match.line, match.text]));
  const blocks: NonNullable<GrepResult['blocks']> = [];
  for (const window of windows) {
    const start = await cursor.byteOfLineStart(window.first);
    const end = await cursor.byteOfLineEnd(window.last);
    const text = decodeUtf8(await cursor.bytes(start, end));
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '' && text.endsWith('\n')) lines.pop();
    blocks.push({
      lines: lines.map((line, index) => {
        const number = window.first + index;
        const isMatch = matched.has(number);
        return {
          line: number,
          text: isMatch ? (clipped.get(number) ?? line) : clipContext(line),
          match: isMatch,
        };
      }),
    });
  }
  return blocks;
}

/** A context line shown in full up to 500 characters. */
function clipContext(line: string): string {
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/** `23 matching lines of 88,001 lines (showing the first 20)` */
export function describeGrep(shown: number, total: number, complete: boolean, lines: number): string {
  const of = `of ${formatCount(lines)} lines`;
  if (total === 0) return `no matching lines ${of}`;
  const found = `${formatCount(total)}${complete ? '' : '+'} matching line${total === 1 ? '' : 's'} ${of}`;
  return shown < total ? `${found} (showing the first ${formatCount(shown)})` : found;
}
