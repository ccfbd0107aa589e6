import { ScratchpadError } from './errors.js';

/** Lines `start..end`, 1-based and inclusive; negative counts from the end (`-1` is the last line). */
export interface LineRange {
  start: number;
  /** Absent: to the end. */
  end?: number;
}

const LINE_RANGE = /^\s*(-?\d+)?\s*(?::\s*(-?\d+)?)?\s*$/;

/**
 * The one parser of line ranges, for the CLI's `--lines` and the tools' `lines`: `"A:B"`, `"A:"` (to the end),
 * `":B"` (from the first line), `"-50:"` (the last 50 lines), `"A"` (one line); spaces around the parts are
 * allowed. Line 0 does not exist: `0` as either bound, a number past 2^53, an empty text or a lone `:` is
 * `INVALID_ARGUMENT`.
 */
export function parseLineRange(text: string): LineRange {
  const match = LINE_RANGE.exec(text);
  const trimmed = text.trim();
  if (!match || trimmed === '' || trimmed === ':') throw invalidLineRange(text);
  const start = match[1] === undefined ? 1 : Number(match[1]);
  const end = !trimmed.includes(':') ? start : match[2] === undefined ? undefined : Number(match[2]);
  if (
    start === 0 ||
    end === 0 ||
    !Number.isSafeInteger(start) ||
    (end !== undefined && !Number.isSafeInteger(end))
  )
    throw invalidLineRange(text);
  return end === undefined ? { start } : { start, end };
}

function invalidLineRange(text: string): ScratchpadError {
  return new ScratchpadError('INVALID_ARGUMENT', `Invalid line range ${JSON.stringify(text)}.`, {
    hint: 'Write "A:B" (1-based, inclusive), "A:" to the end, ":B" from the start, "-50:" for the last 50 lines, or "A" for one line.',
  });
}
