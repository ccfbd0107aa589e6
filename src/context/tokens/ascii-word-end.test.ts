import fc from 'fast-check';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { type AsciiWordEnd, cl100kWordEnd, o200kWordEnd } from './ascii-word-end.js';

/** Characters where the patterns' branches part: every ASCII class, and (rarer) non-ASCII look-alikes of each. */
const asciiUnit = fc.constantFrom(
  'a',
  'z',
  'A',
  'Z',
  's',
  'S',
  'l',
  'L',
  'v',
  'r',
  'e',
  'd',
  'm',
  't',
  '0',
  '9',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  "'",
  '/',
  '!',
  '.',
  '_',
  '\x00',
  '\x1c',
  '\x7f',
);
const otherUnit = fc.constantFrom('é', 'É', 'ſ', '\u0301', '\u00a0', '\u2028', '²', '٣', '日', '🚀');
const unit = fc.oneof({ arbitrary: asciiUnit, weight: 9 }, { arbitrary: otherUnit, weight: 1 });

/** What the pattern matches at `start`, as [start, end). */
function patternWord(pattern: RegExp, text: string, start: number): [number, number] | undefined {
  pattern.lastIndex = start;
  const match = pattern.exec(text);
  return match ? [match.index, match.index + match[0].length] : undefined;
}

function agrees(wordEnd: AsciiWordEnd, source: RegExp): void {
  const pattern = new RegExp(source.source, 'gu');
  let decided = 0;
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
      for (let start = 0; start < text.length; start += 1) {
        const end = wordEnd(text, start);
        if (end < 0) continue;
        decided += 1;
        // Only positions where the pattern's own matches can start are compared (inside a surrogate pair the
        // pattern moves on to the pair's start or end).
        const code = text.charCodeAt(start);
        if (code >= 0xdc00 && code <= 0xdfff) continue;
        expect([start, end]).toEqual(patternWord(pattern, text, start));
      }
    }),
    { numRuns: 3000 },
  );
  expect(decided).toBeGreaterThan(10_000);
}

describe('ASCII word ends', () => {
  it('o200k: ends every word where the pattern ends it, or leaves it to the pattern', () => {
    agrees(o200kWordEnd, O200K_TOKEN_SPLIT_REGEX);
  });

  it('cl100k: ends every word where the pattern ends it, or leaves it to the pattern', () => {
    agrees(cl100kWordEnd, CL100K_TOKEN_SPLIT_REGEX);
  });

  it('leaves a word to the pattern when a character outside ASCII decides where it ends', () => {
    expect(o200kWordEnd('cafe\u0301', 0)).toBe(-1);
    expect(o200kWordEnd('12²', 0)).toBe(-1);
    expect(o200kWordEnd('  \u00a0x', 0)).toBe(-1);
    expect(cl100kWordEnd('na\u00efve', 0)).toBe(-1);
    expect(o200kWordEnd('123²', 0)).toBe(3);
    expect(o200kWordEnd("don'tcha", 0)).toBe(5);
    expect(cl100kWordEnd("'ll", 0)).toBe(3);
  });
});
