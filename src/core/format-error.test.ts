import { describe, expect, it } from 'vitest';
import { ScratchpadError } from './errors.js';
import { errorPayload, formatError, formatUnknownError } from './format-error.js';

describe('formatError', () => {
  it('shows code, message and hint as one line', () => {
    const error = new ScratchpadError(
      'SLICE_OUT_OF_RANGE',
      'Start 10 is past the end: the entry has 3 chars.',
      {
        hint: 'Use a start between 0 and 3.',
      },
    );
    expect(formatError(error)).toBe(
      'Error (SLICE_OUT_OF_RANGE): Start 10 is past the end: the entry has 3 chars. Use a start between 0 and 3.',
    );
    expect(errorPayload(error)).toEqual({
      code: 'SLICE_OUT_OF_RANGE',
      message: 'Start 10 is past the end: the entry has 3 chars.',
      hint: 'Use a start between 0 and 3.',
    });
  });

  it('leaves the hint out when there is none', () => {
    const error = new ScratchpadError('ENTRY_NOT_FOUND', 'No entry x.');
    expect(formatError(error)).toBe('Error (ENTRY_NOT_FOUND): No entry x.');
    expect(errorPayload(error)).toEqual({ code: 'ENTRY_NOT_FOUND', message: 'No entry x.' });
  });

  it('gives foreign errors the same shape without a code', () => {
    expect(formatUnknownError(new TypeError('boom'))).toBe('Error: boom');
    expect(formatUnknownError('text')).toBe('Error: text');
    expect(formatUnknownError(new ScratchpadError('STORE_FULL', 'Full.'))).toBe('Error (STORE_FULL): Full.');
  });
});
