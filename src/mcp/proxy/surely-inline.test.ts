import { describe, expect, it } from 'vitest';
import { createOffloadPolicy } from '../../context/offload/index.js';
import { surelyInline } from './surely-inline.js';

describe('surelyInline', () => {
  it('is sure only when no character could take the text past the threshold in the measure', () => {
    const bytes = createOffloadPolicy({ threshold: 30, measure: 'bytes' });
    expect(surelyInline(bytes, 'tool', 'x'.repeat(10))).toBe(true);
    expect(surelyInline(bytes, 'tool', 'x'.repeat(11))).toBe(false);
    const chars = createOffloadPolicy({ threshold: 10, measure: 'chars' });
    expect(surelyInline(chars, 'tool', '€'.repeat(10))).toBe(true);
    expect(surelyInline(chars, 'tool', 'x'.repeat(11))).toBe(false);
    const json = createOffloadPolicy({ threshold: 62, measure: 'json-bytes' });
    expect(surelyInline(json, 'tool', '\u0001'.repeat(10))).toBe(true);
    expect(surelyInline(json, 'tool', 'x'.repeat(11))).toBe(false);
  });

  it('leaves tokens, per-tool rules, empty texts and nameless tools to the offloader', () => {
    expect(surelyInline(createOffloadPolicy({ threshold: 1000, measure: 'tokens' }), 'tool', 'x')).toBe(
      false,
    );
    const perTool = createOffloadPolicy({
      threshold: 1000,
      measure: 'bytes',
      perTool: { tiny: { threshold: 2 }, keep: { offload: 'always' }, skip: { offload: 'never' } },
    });
    expect(surelyInline(perTool, 'tiny', 'xyz')).toBe(false);
    expect(surelyInline(perTool, 'keep', 'x')).toBe(false);
    expect(surelyInline(perTool, 'skip', 'x')).toBe(false);
    expect(surelyInline(perTool, 'other', 'xyz')).toBe(true);
    expect(surelyInline(perTool, 'other', '')).toBe(false);
    expect(surelyInline(perTool, '', 'xyz')).toBe(false);
  });
});
