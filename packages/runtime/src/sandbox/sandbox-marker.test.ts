import { describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { assertOutsideSandbox } from './assert-outside-sandbox.js';
import { detectSandbox } from './sandbox-marker.js';

describe('detectSandbox', () => {
  it('finds nothing outside a sandbox, and the environment variable as a hint', () => {
    expect(detectSandbox({})).toBeUndefined();
    expect(detectSandbox({ SCRATCHPAD_SANDBOX: 'bubblewrap' })).toMatch(/SCRATCHPAD_SANDBOX is set/);
  });

  it('lets signing go ahead outside a sandbox and refuses it inside, saying who may sign', () => {
    expect(() => assertOutsideSandbox('sign an executor')).not.toThrow();
    process.env.SCRATCHPAD_SANDBOX = 'bubblewrap';
    try {
      assertOutsideSandbox('sign an executor');
      throw new Error('expected a refusal');
    } catch (error) {
      expect(ScratchpadError.hasCode(error, 'INSIDE_SANDBOX')).toBe(true);
      expect((error as ScratchpadError).message).toMatch(/^Refusing to sign an executor inside a sandbox/);
      expect((error as ScratchpadError).hint).toMatch(/only you may do it, outside any sandbox/);
    } finally {
      delete process.env.SCRATCHPAD_SANDBOX;
    }
  });
});
