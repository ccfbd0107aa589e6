import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { headPreview } from './head-preview.js';

describe('headPreview (seed 004)', () => {
  it('keeps the first 2,000 bytes', () => {
    const text = 'abcdefghij'.repeat(500);
    expect(headPreview(text)).toBe(text.slice(0, 2000));
    expect(headPreview('short')).toBe('short');
  });

  it('cuts back to a whole character when 2,000 bytes end inside one', () => {
    const text = `${'a'.repeat(1999)}é${'b'.repeat(100)}`;
    const preview = headPreview(text);
    expect(preview).toBe('a'.repeat(1999));
    expect(Buffer.byteLength(preview)).toBeLessThanOrEqual(2000);
    const emoji = headPreview('😀'.repeat(1000));
    expect(emoji).toBe('😀'.repeat(500));
  });

  it('takes another byte budget', () => {
    expect(headPreview('ééé', { bytes: 5 })).toBe('éé');
  });
});
