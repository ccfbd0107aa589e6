import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordSnippetOfBytes } from './byte-snippet.js';
import { wordSnippet } from './word-snippet.js';

/** Pieces of text the generated chunks are made of: words, the query's words in any case, folds, other scripts. */
const PIECES = [
  ' ',
  '\n',
  '\t',
  'needle',
  'NEEDLE',
  'NeEdLe',
  'needles',
  '_needle',
  'needle_x',
  'zanzibarquokka',
  'ZanzibarQuoKKa',
  'zanzibarquo\u212akka',
  'quokka',
  'kiosk',
  '\u212aiosk',
  'kio\u017fk',
  'sks',
  'error',
  'ERROR',
  'errör',
  'français',
  'zoë',
  '太郎',
  'エラー',
  '😀',
  '𠀀',
  '→',
  'x1',
  '42',
  'a'.repeat(500),
  'lorem ipsum dolor sit amet '.repeat(20),
];
/** Bytes that are not UTF-8 on their own: continuation runs, cut sequences, bytes never valid. */
const INVALID = [
  [0x80],
  [0xbf, 0x80, 0x80, 0x80],
  [0xe2, 0x84],
  [0xf0, 0x9f, 0x98],
  [0xc5],
  [0xff],
  [0xc0, 0xaf],
];
const TERMS = [
  'needle',
  'zanzibarquokka',
  'quokka',
  'kiosk',
  'sks',
  'error',
  'x1',
  '42',
  'zoë',
  'エラー',
  'k',
  's',
];

const chunk = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...PIECES).map((piece) => Buffer.from(piece)) },
      { weight: 1, arbitrary: fc.constantFrom(...INVALID).map((bytes) => Buffer.from(bytes)) },
      {
        weight: 1,
        arbitrary: fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => Buffer.from(bytes)),
      },
    ),
    { maxLength: 400 },
  )
  .map((pieces) => Buffer.concat(pieces));

describe('wordSnippetOfBytes', () => {
  it('gives the snippet the whole decoded text gives, or undefined as it does', () => {
    fc.assert(
      fc.property(chunk, fc.subarray(TERMS, { minLength: 1, maxLength: 3 }), (bytes, terms) => {
        expect(wordSnippetOfBytes(bytes, terms)).toBe(wordSnippet(bytes.toString('utf8'), terms));
      }),
      { numRuns: 1000 },
    );
  });

  it('finds a word far into a long chunk and cuts the snippet as the whole text does', () => {
    const filler = 'alpha beta gamma delta ✓ épsilon 太郎 '.repeat(8000);
    const bytes = Buffer.from(`${filler}the rare ZanzibarQuokka here\n${filler}`);
    const snippet = wordSnippetOfBytes(bytes, ['zanzibarquokka']);
    expect(snippet).toContain('the rare [ZanzibarQuokka] here');
    expect(snippet).toBe(wordSnippet(bytes.toString('utf8'), ['zanzibarquokka']));
    expect(wordSnippetOfBytes(bytes, ['quokka'])).toBeUndefined();
  });

  it('decodes enough on each side for 400 characters of 3-byte, 4-byte and invalid bytes without a space', () => {
    const sides = [Buffer.from('太'.repeat(900)), Buffer.from('😀'.repeat(700)), Buffer.alloc(2000, 0x80)];
    for (const before of sides) {
      for (const after of sides) {
        const bytes = Buffer.concat([before, Buffer.from(' error '), after]);
        const whole = wordSnippet(bytes.toString('utf8'), ['error']) as string;
        expect(whole.length).toBeGreaterThan(400);
        expect(wordSnippetOfBytes(bytes, ['error'])).toBe(whole);
      }
    }
  });

  it('relies on a fact of the `iu` flags: only K U+212A and ſ U+017F fold to an ASCII word character', () => {
    const folds: string[] = [];
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      if (/^[a-z0-9_]$/iu.test(String.fromCodePoint(code))) folds.push(code.toString(16));
    }
    expect(folds).toEqual(['17f', '212a']);
  });
});
