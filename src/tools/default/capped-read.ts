import { ScratchpadError } from '../../core/errors.js';
import type { SliceLocation } from '../../core/location.js';
import type { ReadSlice } from '../../core/slice.js';
import type { EntryRef, ReadOptions, ReadResult } from '../../service/types.js';
import type { ToolContext } from '../tool.js';

/** Bytes one answer of a `default`-preset tool carries at most, unless the preset is given another cap. */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024;

/** Room an answer keeps for its header and the line that says which call continues. */
export const ANSWER_FRAME_BYTES = 1024;

/** Arguments of the read that continues a cut answer: the rest of the lines, or of the characters (bytes). */
export type ReadContinuation = { lines: string } | { offset: number; limit: number };

/** A read cut to a cap: the start of the slice asked for and, when something was left out, how to continue. */
export interface CappedRead {
  result: ReadResult;
  next?: ReadContinuation;
}

interface Refusal {
  start: number;
  end: number;
  fit: number;
  lines?: SliceLocation['lines'];
}

/**
 * Reads `slice`, or, when it would not fit in `capBytes` (nor in the context's `maxReplyBytes`), only its start:
 * whole lines up to the cap for a line range (a line longer than the cap is cut by characters), the characters
 * (bytes) that fit otherwise. Nothing past the cap is ever read; `next` holds the arguments of the call that
 * continues where this answer ends.
 */
export async function readWithinCap(
  context: ToolContext,
  ref: EntryRef,
  slice: ReadSlice,
  options: Omit<ReadOptions, 'maxBytes'>,
  capBytes: number,
): Promise<CappedRead> {
  const limit = Math.min(capBytes, context.maxReplyBytes ?? Number.POSITIVE_INFINITY);
  const budget = { ...options, maxBytes: Math.max(1, limit - ANSWER_FRAME_BYTES) };
  let refusal: Refusal;
  try {
    return { result: await context.session.read(ref, slice, budget) };
  } catch (error) {
    if (!ScratchpadError.hasCode(error, 'CONTENT_TOO_LARGE') || typeof error.details.fit !== 'number')
      throw error;
    refusal = error.details as unknown as Refusal;
  }
  // The fit is counted on the entry's own bytes from the start (`sliceThatFits`), so this read fits; it halves
  // only should the entry be replaced by a denser one between the two reads.
  let fit = refusal.fit;
  let part: ReadResult;
  for (;;) {
    try {
      part = await context.session.read(ref, { type: 'offset', offset: refusal.start, limit: fit }, budget);
      break;
    } catch (error) {
      if (!ScratchpadError.hasCode(error, 'CONTENT_TOO_LARGE') || fit <= 1) throw error;
      fit = Math.floor(fit / 2);
    }
  }
  const first = part.location.lines?.first;
  const cut = part.content.lastIndexOf('\n');
  if (slice.type === 'lines' && refusal.lines && first !== undefined && cut >= 0) {
    const whole = first + countNewlines(part.content, cut + 1) - 1;
    const result = await context.session.read(ref, { type: 'lines', start: first, end: whole }, budget);
    const last = Math.min(refusal.lines.last, refusal.lines.total);
    return { result, next: { lines: `${whole + 1}:${last}` } };
  }
  return { result: part, next: { offset: part.location.end, limit: refusal.end - part.location.end } };
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index >= 0 && index < end; index = text.indexOf('\n', index + 1))
    count++;
  return count;
}
