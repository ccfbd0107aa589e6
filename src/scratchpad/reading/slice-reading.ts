import { formatCount } from '../../core/format.js';
import type { SliceLocation } from '../../core/location.js';
import { type ReadSlice, resolveLines, resolveSpan } from '../../core/slice.js';
import { decodeUtf8 } from '../../core/utf8.js';
import type { GrepResult } from '../types.js';
import { assertText } from '../writing/write-rules.js';
import type { ChunkCursor } from './chunk-cursor.js';

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

/** Resolves a slice to a global byte span. */
export async function byteSpan(
  cursor: ChunkCursor,
  slice: ReadSlice,
): Promise<{ start: number; end: number }> {
  const record = cursor.record;
  if (slice.type === 'lines') {
    assertText(record, 'read lines of');
    const { first, last } = resolveLines(slice.start, slice.end, record.lines);
    return { start: await cursor.byteOfLineStart(first), end: await cursor.byteOfLineEnd(last) };
  }
  if (record.kind === 'binary') return resolveSpan(slice, record.bytes, 'bytes');
  const span = resolveSpan(slice, record.chars, 'chars');
  if (span.start === 0 && span.end === record.chars) return { start: 0, end: record.bytes };
  const start = await cursor.byteOfChar(span.start);
  const end = span.end === span.start ? start : await cursor.byteOfChar(span.end);
  return { start, end };
}

/** Describes a byte span on the entry's own axes. */
export async function locateSpan(
  cursor: ChunkCursor,
  span: { start: number; end: number },
): Promise<SliceLocation> {
  const record = cursor.record;
  if (record.kind === 'binary')
    return { unit: 'bytes', start: span.start, end: span.end, total: record.bytes };
  const first = await cursor.describeByte(span.start);
  const last = span.end > span.start ? await cursor.describeByte(span.end - 1) : first;
  const endChar = span.end === record.bytes ? record.chars : (await cursor.describeByte(span.end)).char;
  return {
    unit: 'chars',
    start: first.char,
    end: endChar,
    total: record.chars,
    lines: {
      first: Math.min(first.line, Math.max(1, record.lines)),
      last: Math.min(last.line, Math.max(1, record.lines)),
      total: record.lines,
    },
  };
}

/** A context line shown in full up to 500 characters. */
export function clipContext(line: string): string {
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/** `23 matching lines of 88,001 lines (showing the first 20)` */
export function describeGrep(shown: number, total: number, complete: boolean, lines: number): string {
  const of = `of ${formatCount(lines)} lines`;
  if (total === 0) return `no matching lines ${of}`;
  const found = `${formatCount(total)}${complete ? '' : '+'} matching line${total === 1 ? '' : 's'} ${of}`;
  return shown < total ? `${found} (showing the first ${formatCount(shown)})` : found;
}
