import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ScratchpadError } from './errors.js';

describe('ScratchpadError', () => {
  it('documents every code in docs/errors.md with its category', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    for (const code of ERROR_CODES) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
      expect(row, `${code} is not documented in docs/errors.md`).toBeDefined();
      expect(row).toContain(`| ${new ScratchpadError(code, 'x').category} |`);
    }
  });

  it('is recognised across copies by its brand, and serialises without internals', () => {
    const error = new ScratchpadError('ENTRY_NOT_FOUND', 'No entry x.', { hint: 'List entries.' });
    expect(ScratchpadError.isInstance(error)).toBe(true);
    expect(ScratchpadError.isInstance(new Error('x'))).toBe(false);
    expect(ScratchpadError.isInstance({ ...error })).toBe(true);
    expect(ScratchpadError.hasCode(error, 'ENTRY_NOT_FOUND')).toBe(true);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'ScratchpadError',
      code: 'ENTRY_NOT_FOUND',
      category: 'user',
      message: 'No entry x.',
      hint: 'List entries.',
    });
  });
});
