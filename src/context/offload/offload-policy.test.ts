import { describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { PREVIEW_BUILDERS } from '../previews/preview-registry.js';
import { createOffloadPolicy, DEFAULT_EXEMPT_TOOLS } from './offload-policy.js';

describe('createOffloadPolicy', () => {
  it("has each format's defaults: seed 000, seed 004 and ours", () => {
    const metnos = createOffloadPolicy({ format: 'metnos' });
    expect([metnos.threshold, metnos.measure, metnos.ttlMs, metnos.minSavings]).toEqual([
      4096,
      'json-bytes',
      3_600_000,
      0,
    ]);
    expect(metnos.previewFor('fs_read')).toBe(PREVIEW_BUILDERS['head-tail']);
    const named = createOffloadPolicy({ format: 'named' });
    expect([named.threshold, named.measure, named.ttlMs]).toEqual([30_000, 'chars', null]);
    expect(named.previewFor('execute_command')).toBe(PREVIEW_BUILDERS.head);
    const ours = createOffloadPolicy();
    expect([ours.format, ours.threshold, ours.measure, ours.ttlMs, ours.minSavings]).toEqual([
      'default',
      768,
      'bytes',
      undefined,
      0.5,
    ]);
    expect(ours.previewFor('bash')).toBe(PREVIEW_BUILDERS.salient);
  });

  it('takes a global threshold and per-tool rules over it', () => {
    const policy = createOffloadPolicy({
      threshold: 2000,
      perTool: {
        fetch: { threshold: 50_000, preview: 'head' },
        bash: { offload: 'always' },
        secrets: { offload: 'never' },
      },
    });
    expect(policy.thresholdFor('grep')).toBe(2000);
    expect(policy.thresholdFor('fetch')).toBe(50_000);
    expect(policy.previewFor('fetch')).toBe(PREVIEW_BUILDERS.head);
    expect(policy.previewFor('grep')).toBe(PREVIEW_BUILDERS.salient);
    expect(policy.thresholdFor('bash')).toBe(0);
    expect(policy.isExempt('secrets')).toBe(true);
    expect(policy.isExempt('bash')).toBe(false);
  });

  it("never offloads the scratchpad's own tools, whatever else is exempted", () => {
    const policy = createOffloadPolicy({ exempt: ['ls'], readTool: 'notes_read' });
    for (const tool of DEFAULT_EXEMPT_TOOLS) expect(policy.isExempt(tool)).toBe(true);
    expect(policy.isExempt('scratchpad_grep')).toBe(true);
    expect(policy.isExempt('notes_read')).toBe(true);
    expect(policy.isExempt('ls')).toBe(true);
    expect(policy.isExempt('bash')).toBe(false);
  });

  it('rejects invalid settings with a ScratchpadError that says what to do', () => {
    const cases = [
      { format: 'yaml' },
      { threshold: -1 },
      { threshold: 1.5 },
      { measure: 'words' },
      { minSavings: 1 },
      { ttlMs: 0 },
      { perTool: { bash: { threshold: -5 } } },
      { perTool: { bash: { offload: 'sometimes' } } },
      { preview: 'middle' },
    ];
    for (const options of cases) {
      let caught: unknown;
      try {
        createOffloadPolicy(options as never);
      } catch (error) {
        caught = error;
      }
      expect(ScratchpadError.isInstance(caught), JSON.stringify(options)).toBe(true);
      expect((caught as ScratchpadError).hint, JSON.stringify(options)).toBeTruthy();
    }
  });
});
