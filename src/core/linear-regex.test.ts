import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinearRegex } from './linear-regex.js';

describe('LinearRegex', () => {
  it('finds on strings by UTF-16 index and on bytes by byte offset', () => {
    const regex = LinearRegex.compile('é+', { ignoreCase: true });
    expect(regex.find('aÉé')).toEqual({ start: 1, end: 3 });
    expect(regex.find(Buffer.from('aÉé'))).toEqual({ start: 1, end: 5 });
  });

  it('keeps line anchors and word boundaries right when the search starts inside the input', () => {
    const text = Buffer.from('abb\nbbb\nxb');
    expect(LinearRegex.compile('^b+').find(text, 1)).toEqual({ start: 4, end: 7 });
    expect(LinearRegex.compile('\\bfoo\\b').find('xfoo foo', 1)).toEqual({ start: 5, end: 8 });
  });

  it('gives group texts, undefined for a group that took no part', () => {
    const match = LinearRegex.compile('(?<k>a+)(x)?').exec('baa');
    expect(match?.groups).toEqual(['aa', 'aa', undefined]);
  });

  it('runs a pattern that backtracking engines take exponential time on, in linear time', () => {
    expect(LinearRegex.compile('(a*)*$').test(`${'a'.repeat(100_000)}b`)).toBe(true);
    expect(LinearRegex.compile('^(a|aa)+$').test(`${'a'.repeat(50_000)}b`)).toBe(false);
  });

  it('refuses lookaround and backreferences at compile time', () => {
    expect(() => LinearRegex.compile('(?=a)')).toThrow();
    expect(() => LinearRegex.compile('(a)\\1')).toThrow();
  });

  it('property: on patterns both engines take, matches where JavaScript does', () => {
    const atom = fc.constantFrom('a', 'b', '.', '\\d', '[ab]', '[^a]', '\\w', ' ', '\\s', 'x');
    const piece = fc.tuple(atom, fc.constantFrom('', '*', '+', '?', '{1,2}')).map(([a, q]) => a + q);
    const pattern = fc.array(piece, { minLength: 1, maxLength: 5 }).map((pieces) => pieces.join(''));
    const text = fc.stringMatching(/^[ab1 x\n]{0,40}$/);
    fc.assert(
      fc.property(pattern, text, fc.boolean(), (source, input, ignoreCase) => {
        const ours = [...LinearRegex.compile(source, { ignoreCase }).matches(input)].map((m) => [
          m.start,
          m.end,
        ]);
        const theirs = [...input.matchAll(new RegExp(source, ignoreCase ? 'gim' : 'gm'))].map((m) => [
          m.index,
          m.index + m[0].length,
        ]);
        // Leftmost-first semantics agree with JavaScript's for patterns without lookaround or backreferences.
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 500 },
    );
  });
});
