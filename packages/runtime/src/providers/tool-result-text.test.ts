import { describe, expect, it } from 'vitest';
import { toolResultText } from './tool-result-text.js';

describe('toolResultText', () => {
  it('marks a failed result once, never twice', () => {
    expect(toolResultText({ content: 'no such file', isError: true })).toBe('Error: no such file');
    expect(toolResultText({ content: 'Error (INVALID_ARGUMENT): bad n.', isError: true })).toBe(
      'Error (INVALID_ARGUMENT): bad n.',
    );
    expect(toolResultText({ content: 'Errors: 3 found', isError: false })).toBe('Errors: 3 found');
    expect(toolResultText({ content: 'Errors: 3 found', isError: true })).toBe('Error: Errors: 3 found');
  });
});
