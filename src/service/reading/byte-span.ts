import type { SliceLocation } from '../../core/location.js';
import { type ReadSlice, resolveLines, resolveSpan } from '../../core/slice.js';
import { assertText } from './assert-text.js';
import type { ChunkCursor } from './chunk-cursor.js';

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
