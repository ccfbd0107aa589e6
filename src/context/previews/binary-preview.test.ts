import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { binaryPreview } from './binary-preview.js';

describe('binaryPreview (seed 000)', () => {
  it('is [BINARY: N bytes, sha256=HEX]', () => {
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff]);
    const hex = createHash('sha256').update(bytes).digest('hex');
    expect(binaryPreview(bytes)).toBe(`[BINARY: 6 bytes, sha256=${hex}]`);
    expect(binaryPreview(new Uint8Array())).toBe(
      '[BINARY: 0 bytes, sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855]',
    );
  });
});
