import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePattern, findMatch } from './regex.js';

describe('compilePattern', () => {
  it('knows which patterns stay on one line', () => {
    const local = (pattern: string): boolean => {
      const compiled = compilePattern(pattern);
      return compiled.kind === 'regex' && compiled.lineLocal;
    };
    for (const pattern of ['status=5\\d\\d', 'a.*b', '\\bword\\b', '[abc]+', 'x\\S+y', '^ERROR', 'end$'])
      expect(local(pattern)).toBe(true);
    for (const pattern of ['a\\sb', 'a[^x]b', 'a\\nb', '(?s)a.b', 'a\\Db', '\\p{L}', 'a\\x0ab'])
      expect(local(pattern)).toBe(false);
  });

  it('finds where JavaScript finds, for any pattern, text and start', () => {
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
    );
    const quantifier = fc.constantFrom('', '', '?', '*', '+', '{2}');
    const patterns = fc
      .array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.map(([a, q]) => (/^[\^$]|\\b$/.test(a) ? a : a + q)).join(''));
    const texts = fc
      .array(fc.stringMatching(/^[abx 0-9]{0,10}$/), { maxLength: 10 })
      .map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(patterns, texts, fc.nat(), (source, text, start) => {
        const buffer = Buffer.from(text);
        const from = start % (buffer.byteLength + 1);
        const reference = new RegExp(source, 'gm');
        reference.lastIndex = from;
        const expected = reference.exec(text)?.index ?? -1;
        expect(findMatch(compilePattern(source), buffer, from, buffer.byteLength + 1)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
