import { createHash } from 'node:crypto';

/** Seed 000's note for binary results: `[BINARY: N bytes, sha256=HEX]` (no textual preview: it would be gibberish). */
export function binaryPreview(bytes: Uint8Array): string {
  return `[BINARY: ${bytes.byteLength} bytes, sha256=${createHash('sha256').update(bytes).digest('hex')}]`;
}
