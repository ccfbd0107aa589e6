import { ScratchpadError } from './errors.js';
import { formatCount } from './format.js';

/**
 * What part of an entry to read. Text entries count characters (code points); binary entries count bytes.
 * Lines are 1-based and inclusive; negative line numbers count from the end (-1 = the last line).
 */
export type ReadSlice =
  | { type: 'full' }
  | { type: 'head'; count: number }
  | { type: 'tail'; count: number }
  | { type: 'range'; start: number; end?: number }
  | { type: 'offset'; offset: number; limit: number }
  | { type: 'lines'; start: number; end?: number };

/** The numeric fields of each slice type: required, then optional. */
const SLICE_FIELDS: Record<ReadSlice['type'], { required: string[]; optional: string[] }> = {
  full: { required: [], optional: [] },
  head: { required: ['count'], optional: [] },
  tail: { required: ['count'], optional: [] },
  range: { required: ['start'], optional: ['end'] },
  offset: { required: ['offset', 'limit'], optional: [] },
  lines: { required: ['start'], optional: ['end'] },
};

/**
 * Checks the shape of a slice that came from outside the type system (JavaScript callers, parsed JSON): an object
 * with a known `type` and numbers where that type has them. A malformed slice is `INVALID_ARGUMENT` naming what is
 * wrong, never a `TypeError` from deeper in the read. Values (integers, ranges) are checked where they are resolved.
 */
export function assertReadSlice(slice: unknown): asserts slice is ReadSlice {
  const types = Object.keys(SLICE_FIELDS);
  const invalid = (message: string): ScratchpadError =>
    new ScratchpadError('INVALID_ARGUMENT', message, {
      hint: 'A slice is {type: "full"}, {type: "head" | "tail", count}, {type: "range", start, end?}, {type: "offset", offset, limit} or {type: "lines", start, end?}.',
    });
  if (typeof slice !== 'object' || slice === null || Array.isArray(slice)) {
    throw invalid(`A slice must be an object, got ${describeValue(slice)}.`);
  }
  const record = slice as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== 'string' || !Object.hasOwn(SLICE_FIELDS, type)) {
    throw invalid(`Unknown slice type ${describeValue(type)}: use one of ${types.join(', ')}.`);
  }
  const fields = SLICE_FIELDS[type as ReadSlice['type']];
  for (const field of fields.required) {
    if (typeof record[field] !== 'number') {
      throw invalid(`A "${type}" slice needs a number ${field}, got ${describeValue(record[field])}.`);
    }
  }
  for (const field of fields.optional) {
    if (record[field] !== undefined && typeof record[field] !== 'number') {
      throw invalid(
        `The ${field} of a "${type}" slice must be a number, got ${describeValue(record[field])}.`,
      );
    }
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

/** A resolved `[start, end)` span on one axis. */
export interface Span {
  start: number;
  end: number;
}

function assertInteger(value: number, what: string, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `${what} must be an integer >= ${min}, got ${String(value)}.`,
      {
        details: { [what]: value },
      },
    );
  }
}

/**
 * Resolves a character/byte slice against an entry of `total` units into a `[start, end)` span.
 * `head`/`tail`/`offset` past the end are clipped (reading "the first 2,000" of 500 gives 500); a `range` or
 * `offset` that starts past the end is `SLICE_OUT_OF_RANGE` with the entry's length.
 */
export function resolveSpan(
  slice: Exclude<ReadSlice, { type: 'lines' }>,
  total: number,
  unit: 'chars' | 'bytes',
): Span {
  switch (slice.type) {
    case 'full':
      return { start: 0, end: total };
    case 'head':
      assertInteger(slice.count, 'count', 0);
      return { start: 0, end: Math.min(total, slice.count) };
    case 'tail':
      assertInteger(slice.count, 'count', 0);
      return { start: Math.max(0, total - slice.count), end: total };
    case 'offset':
      assertInteger(slice.offset, 'offset', 0);
      assertInteger(slice.limit, 'limit', 0);
      return checkedSpan(slice.offset, slice.offset + slice.limit, total, unit);
    case 'range': {
      assertInteger(slice.start, 'start', 0);
      const end = slice.end ?? total;
      assertInteger(end, 'end', 0);
      if (end < slice.start) {
        throw new ScratchpadError(
          'INVALID_ARGUMENT',
          `Range end ${end} is before its start ${slice.start}.`,
          {
            hint: 'Give start <= end; the range is [start, end).',
            details: { start: slice.start, end },
          },
        );
      }
      return checkedSpan(slice.start, end, total, unit);
    }
  }
}

function checkedSpan(start: number, end: number, total: number, unit: string): Span {
  if (start > total) {
    throw new ScratchpadError(
      'SLICE_OUT_OF_RANGE',
      `Start ${formatCount(start)} is past the end: the entry has ${formatCount(total)} ${unit}.`,
      {
        hint: total === 0 ? 'The entry is empty.' : `Use a start between 0 and ${formatCount(total)}.`,
        details: { start, total, unit },
      },
    );
  }
  return { start, end: Math.min(end, total) };
}

/**
 * Resolves a 1-based inclusive line range (negative = from the end) against `totalLines`.
 * Returns `{ first, last }`; an end past the last line is clipped; a start past it is `SLICE_OUT_OF_RANGE`.
 */
export function resolveLines(
  start: number,
  end: number | undefined,
  totalLines: number,
): { first: number; last: number } {
  if (!Number.isSafeInteger(start) || start === 0) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `Line numbers start at 1 (or -1 for the last line), got ${String(start)}.`,
      {
        details: { start },
      },
    );
  }
  if (end !== undefined && (!Number.isSafeInteger(end) || end === 0)) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `Line numbers start at 1 (or -1 for the last line), got ${String(end)}.`,
      {
        details: { end },
      },
    );
  }
  const first = start < 0 ? totalLines + start + 1 : start;
  const lastRaw = end === undefined ? totalLines : end < 0 ? totalLines + end + 1 : end;
  if (first < 1 || first > totalLines) {
    throw new ScratchpadError(
      'SLICE_OUT_OF_RANGE',
      `Line ${formatCount(start)} does not exist: the entry has ${formatCount(totalLines)} lines.`,
      {
        hint:
          totalLines === 0
            ? 'The entry is empty.'
            : `Use lines between 1 and ${formatCount(totalLines)} (or -1 for the last).`,
        details: { start, totalLines },
      },
    );
  }
  const last = Math.min(lastRaw, totalLines);
  if (last < first) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `Line range ends (${String(end)}) before it starts (${start}).`,
      {
        hint: 'Give start <= end; both are inclusive.',
        details: { start, end, totalLines },
      },
    );
  }
  return { first, last };
}
