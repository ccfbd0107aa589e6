import { describe, expect, it } from 'vitest';
import { defineErrorCodes, ScratchpadError } from './errors.js';

describe('ScratchpadError', () => {
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

  it("gives a layer's code the category the layer declared, and a library code always its own", () => {
    const layer = defineErrorCodes<'LAYER_DOWN' | 'LAYER_REFUSED'>({
      LAYER_DOWN: 'third-party',
      LAYER_REFUSED: 'user',
    });
    expect(layer.codes).toEqual(['LAYER_DOWN', 'LAYER_REFUSED']);
    const down = layer.error('LAYER_DOWN', 'The layer is down.', { hint: 'Retry.', details: { tries: 2 } });
    expect(ScratchpadError.isInstance(down)).toBe(true);
    expect(down.toJSON()).toEqual({
      name: 'ScratchpadError',
      code: 'LAYER_DOWN',
      category: 'third-party',
      message: 'The layer is down.',
      hint: 'Retry.',
      details: { tries: 2 },
    });
    expect(layer.error('LAYER_REFUSED', 'No.').category).toBe('user');
    expect(new ScratchpadError('STORE_FULL', 'Full.', { category: 'user' }).category).toBe('system');
  });
});
