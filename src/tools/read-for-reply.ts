import { ScratchpadError } from '../core/errors.js';
import type { ReadSlice } from '../core/slice.js';
import type { EntryRef, ReadOptions, ReadResult } from '../service/types.js';
import type { ToolContext } from './tool.js';

/**
 * A read for a tool's reply: bounded by the context's `maxReplyBytes`, and when the slice is too large, the
 * error's hint becomes the tool's own call for the slice that fits (`sliceCall(start, count)`, in the entry's
 * unit), so the model can copy it.
 */
export async function readForReply(
  context: ToolContext,
  ref: EntryRef,
  slice: ReadSlice,
  options: Omit<ReadOptions, 'maxBytes'>,
  sliceCall: (start: number, count: number) => string,
): Promise<ReadResult> {
  try {
    return await context.session.read(ref, slice, {
      ...options,
      ...(context.maxReplyBytes === undefined ? {} : { maxBytes: context.maxReplyBytes }),
    });
  } catch (error) {
    if (!ScratchpadError.hasCode(error, 'CONTENT_TOO_LARGE') || typeof error.details.fit !== 'number')
      throw error;
    const { start, fit, unit } = error.details as { start: number; fit: number; unit: string };
    throw new ScratchpadError('CONTENT_TOO_LARGE', error.message, {
      hint: `Read it in slices of at most ${fit.toLocaleString('en-US')} ${unit}: ${sliceCall(start, fit)}, then continue from where that one ends.`,
      details: error.details,
      cause: error,
    });
  }
}
