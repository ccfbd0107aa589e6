import { describe, expect, it } from 'vitest';
import { ScratchpadError } from '../core/errors.js';
import { createMemoryDriver } from '../stores/memory/index.js';
import { createScratchpad, type ScratchpadConfig } from './scratchpad.js';

describe('createScratchpad', () => {
  it('refuses a missing config or driver, or bad sizes, with INVALID_ARGUMENT that says what to pass', () => {
    for (const config of [undefined, null, {}, { driver: 'sqlite:./x.db' }]) {
      let thrown: unknown;
      try {
        createScratchpad(config as unknown as ScratchpadConfig);
      } catch (error) {
        thrown = error;
      }
      expect(ScratchpadError.hasCode(thrown, 'INVALID_ARGUMENT'), String(thrown)).toBe(true);
      expect((thrown as ScratchpadError).hint).toContain('openStore(');
    }
    expect(() => createScratchpad({ driver: createMemoryDriver(), maxStoreBytes: 0 })).toThrow(
      /maxStoreBytes must be a whole number of bytes > 0/,
    );
    expect(createScratchpad({ driver: createMemoryDriver() }).session('s').id).toBe('s');
  });
});
