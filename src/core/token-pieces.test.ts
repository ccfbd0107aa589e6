import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOKEN_PIECE_LENGTH, TOKEN_RUN_LIMIT, tokenPieceEnd, tokenPieces } from './token-pieces.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function graphemeBoundaries(text: string): Set<number> {
  const boundaries = new Set([0]);
  for (const { index, segment } of segmenter.segment(text)) boundaries.add(index + segment.length);
  return boundaries;
}

const word = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom('a', 'x', ' ', '\n', '.', '1', 'é', 'e\u0301', '日', '🚀', '👨\u200d👩'),
    maxLength: 900,
  }),
);
const text = fc.array(word, { maxLength: 60 }).map((words) => words.join(' '));

describe('tokenPieces', () => {
  it('covers the text in order with non-empty pieces of bounded length', () => {
    fc.assert(
      fc.property(text, (input) => {
        const pieces = [...tokenPieces(input)];
        expect(pieces.join('')).toBe(input);
        for (const piece of pieces) {
          expect(piece.length).toBeGreaterThan(0);
          expect(piece.length).toBeLessThanOrEqual(TOKEN_PIECE_LENGTH + 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('cuts before a space between two words, else between graphemes', () => {
    fc.assert(
      fc.property(text, (input) => {
        const boundaries = graphemeBoundaries(input);
        let start = 0;
        while (start < input.length) {
          const end = tokenPieceEnd(input, start);
          if (end < input.length) {
            const clean = input[end] === ' ' && /\S/.test(input[end - 1]!) && /\S/.test(input[end + 1] ?? '');
            expect(clean || boundaries.has(end)).toBe(true);
          }
          start = end;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('bounds a run without spaces: 100,000 × "x" goes in pieces of at most the run limit', () => {
    const pieces = [...tokenPieces('x'.repeat(100_000))];
    expect(pieces.length).toBeGreaterThanOrEqual(100_000 / TOKEN_RUN_LIMIT);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(TOKEN_RUN_LIMIT);
  });

  it('keeps ordinary prose in pieces ending before a space', () => {
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(1_000);
    const pieces = [...tokenPieces(prose)];
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces.slice(1)) expect(piece.startsWith(' ')).toBe(true);
  });
});
