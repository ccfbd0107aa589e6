import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { measureContent, toOffloadContent } from './offload-content.js';

describe('measureContent', () => {
  const text = 'zoë ✓ 太郎 😀\n'.repeat(1000);
  const content = toOffloadContent(text);
  if (!content) throw new Error('no content');
  const exact = { bytes: Buffer.byteLength(text), chars: [...text].length };

  it('measures exactly without a limit, or when the size is within it', () => {
    expect(measureContent(content, 'bytes')).toBe(exact.bytes);
    expect(measureContent(content, 'chars')).toBe(exact.chars);
    expect(measureContent(content, 'bytes', undefined, exact.bytes)).toBe(exact.bytes);
    expect(measureContent(content, 'chars', undefined, exact.chars)).toBe(exact.chars);
  });

  it('past a limit it says a size above the limit that the exact size is not below', () => {
    for (const measure of ['bytes', 'chars', 'json-bytes'] as const) {
      const whole = measureContent(content, measure);
      for (const limit of [0, 100, Math.floor(whole / 3), whole - 1]) {
        const size = measureContent(content, measure, undefined, limit);
        expect(size).toBeGreaterThan(limit);
        expect(size).toBeLessThanOrEqual(whole);
      }
    }
  });
});
