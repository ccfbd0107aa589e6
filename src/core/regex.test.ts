import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePattern, findMatch, findMatchingLine } from './regex.js';

describe('findMatchingLine', () => {
  it('knows which patterns stay on one line', () => {
    const local = (pattern: string): boolean => {
      const compiled = compilePattern(pattern);
      return compiled.kind === 're2' && compiled.lineLocal;
    };
    for (const pattern of ['status=5\\d\\d', 'a.*b', '\\bword\\b', '[abc]+', 'x\\S+y', '^ERROR', 'end$'])
      expect(local(pattern)).toBe(true);
    for (const pattern of ['a\\sb', 'a[^x]b', 'a\\nb', '(?s)a.b', 'a\\Db', '\\p{L}', 'a\\x0ab'])
      expect(local(pattern)).toBe(false);
  });

  it('finds the same lines as findMatch, for any pattern and text', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      'ab',
      '\\d',
      '\\w',
      '.',
      '[ab]',
      'x',
      ' ',
      '^',
      '$',
      '\\b',
      '\\s',
      '[^a]',
      'é',
    );
    const quantifier = fc.constantFrom('', '', '?', '*', '+', '{2}');
    const patterns = fc
      .array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.map(([a, q]) => (/^[\^$]|\\b$/.test(a) ? a : a + q)).join(''));
    const texts = fc
      .array(fc.stringMatching(/^[abx 0-9é]{0,10}$/), { maxLength: 10 })
      .map((lines) => lines.join('\n'));
    const lineOf = (buffer: Buffer, at: number): number =>
      at === -1 ? -1 : buffer.subarray(0, at).toString().split('\n').length;
    fc.assert(
      fc.property(patterns, texts, fc.nat(), (source, text, cut) => {
        const compiled = compilePattern(source);
        const buffer = Buffer.from(text);
        let position = 0;
        const to = buffer.byteLength - (cut % 3 === 0 ? Math.min(buffer.byteLength, cut % 5) : 0);
        while (position <= to) {
          const exact = findMatch(compiled, buffer, position, to);
          const line = findMatchingLine(compiled, buffer, position, to);
          expect(lineOf(buffer, line)).toBe(lineOf(buffer, exact));
          if (exact === -1) break;
          const newline = buffer.indexOf(10, exact);
          if (newline === -1) break;
          position = newline + 1;
        }
      }),
      { numRuns: 5000 },
    );
  });
});
