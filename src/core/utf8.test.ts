import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteOffsetOfChar, countCodePoints } from './utf8.js';

/** The definitions, one byte at a time: every byte that is not `10xxxxxx` starts a code point. */
function naiveCount(bytes: Uint8Array, start: number, end: number): number {
  let count = 0;
  for (let index = start; index < end; index++) if (((bytes[index] as number) & 0xc0) !== 0x80) count++;
  return count;
}

function naiveOffset(bytes: Uint8Array, charOffset: number): number {
  let seen = 0;
  for (let index = 0; index < bytes.byteLength; index++) {
    if (((bytes[index] as number) & 0xc0) !== 0x80) {
      if (seen === charOffset) return index;
      seen++;
    }
  }
  return bytes.byteLength;
}

// Views at every alignment of a shared buffer, over text and over arbitrary bytes.
const views = fc
  .tuple(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }).map((text) => new TextEncoder().encode(text)),
      fc.uint8Array({ maxLength: 200 }),
    ),
    fc.nat(7),
  )
  .map(([bytes, shift]) => {
    const backing = new Uint8Array(bytes.byteLength + shift);
    backing.set(bytes, shift);
    return backing.subarray(shift);
  });

describe('utf8 word-at-a-time scans', () => {
  it('countCodePoints matches the byte-by-byte definition on any range and alignment', () => {
    fc.assert(
      fc.property(views, fc.nat(), fc.nat(), (bytes, a, b) => {
        const start = a % (bytes.byteLength + 1);
        const end = start + (b % (bytes.byteLength - start + 1));
        expect(countCodePoints(bytes, start, end)).toBe(naiveCount(bytes, start, end));
        expect(countCodePoints(bytes)).toBe(naiveCount(bytes, 0, bytes.byteLength));
      }),
      { numRuns: 2000 },
    );
  });

  it('countCodePoints is exact on long inputs, across the steps where it folds its byte lanes', () => {
    const long = fc.tuple(
      fc.oneof(
        fc
          .string({ unit: 'binary', minLength: 900, maxLength: 6000 })
          .map((text) => new TextEncoder().encode(text)),
        fc.uint8Array({ minLength: 3000, maxLength: 9000 }),
        fc.constant(new Uint8Array(8192).fill(0x80)),
      ),
      fc.nat(7),
    );
    fc.assert(
      fc.property(long, ([bytes, shift]) => {
        const backing = new Uint8Array(bytes.byteLength + shift);
        backing.set(bytes, shift);
        const view = backing.subarray(shift);
        expect(countCodePoints(view)).toBe(naiveCount(view, 0, view.byteLength));
        expect(countCodePoints(view, 5, view.byteLength - 3)).toBe(naiveCount(view, 5, view.byteLength - 3));
      }),
      { numRuns: 200 },
    );
  });

  it('byteOffsetOfChar matches the byte-by-byte definition, including past the end', () => {
    fc.assert(
      fc.property(views, fc.nat(), (bytes, a) => {
        const charOffset = a % (bytes.byteLength + 3);
        expect(byteOffsetOfChar(bytes, charOffset)).toBe(naiveOffset(bytes, charOffset));
      }),
      { numRuns: 2000 },
    );
  });

  it('handles continuation bytes in every position of a word', () => {
    const text = 'aé€😀'.repeat(50);
    const bytes = new TextEncoder().encode(text);
    expect(countCodePoints(bytes)).toBe([...text].length);
    [...text].forEach((_, index) => {
      expect(byteOffsetOfChar(bytes, index)).toBe(
        new TextEncoder().encode([...text].slice(0, index).join('')).byteLength,
      );
    });
  });
});
