import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinearRegex } from './linear-regex.js';
import { literalAlternatives, requiredLiterals } from './required-literals.js';

describe('requiredLiterals', () => {
  it('finds what every match must contain', () => {
    expect(requiredLiterals('ERROR', false)).toEqual(['ERROR']);
    expect(requiredLiterals('status=5\\d\\d', false)).toEqual(['status=5']);
    expect(requiredLiterals('timeout|declined', false)).toEqual(['timeout', 'declined']);
    expect(requiredLiterals('^ERROR code=(22|39)\\b', false)).toEqual(['ERROR code=22', 'ERROR code=39']);
    expect(requiredLiterals('(ab)+c', false)).toEqual(['ab']);
    expect(requiredLiterals('a\\.b', false)).toEqual(['a.b']);
    expect(requiredLiterals('x[a-z]+yz', false)).toEqual(['yz']);
    expect(requiredLiterals('(.*a){25}', false)).toEqual(['a']);
    // Case-insensitive: only characters without case variants are literal.
    expect(requiredLiterals('status=5\\d\\d', true)).toEqual(['=5']);
    expect(requiredLiterals('error', true)).toBeUndefined();
  });

  it('promises nothing when a branch or the syntax gives nothing to rely on', () => {
    for (const pattern of [
      'a|\\d',
      'a*',
      'x?',
      '.',
      '[abc]',
      '^$',
      '(?i)abc',
      '(?P<n>abc)',
      '\\pLabc',
      '\\Qa.b\\E',
      'a{,2}',
    ])
      expect(requiredLiterals(pattern, false), pattern).toBeUndefined();
  });

  it('property: every match the linear engine finds contains one of the literals', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      'c',
      'ab',
      'é',
      '=',
      '5',
      'K',
      'k',
      's',
      '.',
      '\\d',
      '\\w',
      '\\s',
      '[ab]',
      '[^a]',
      '[]a]',
      '[a\\]]',
      '[[:alpha:]]',
      '^',
      '$',
      '\\b',
      '\\.',
      '\\|',
      '(?:a|b)',
      '(a|bc)',
      '(ab|)',
      '(a(b|c)d)',
    );
    const quantifier = fc.constantFrom('', '', '', '?', '*', '+', '{2}', '{1,3}', '{0,2}', '+?', '*?');
    const branch = fc
      .array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.map(([a, q]) => (/^[\^$]$|\\b$/.test(a) ? a : a + q)).join(''));
    const patterns = fc.array(branch, { minLength: 1, maxLength: 3 }).map((branches) => branches.join('|'));
    const texts = fc.stringMatching(/^[abcKk sſ\u212a=5.|\]é\n]{0,60}$/);
    fc.assert(
      fc.property(patterns, texts, fc.boolean(), (pattern, text, ignoreCase) => {
        const literals = requiredLiterals(pattern, ignoreCase);
        if (literals === undefined) return;
        expect(literals.length).toBeGreaterThan(0);
        for (const literal of literals) expect(literal.length).toBeGreaterThan(0);
        const regex = LinearRegex.compile(pattern, { ignoreCase });
        for (const match of regex.matches(text)) {
          const matched = text.slice(match.start, match.end);
          expect(
            literals.some((literal) => matched.includes(literal)),
            `${pattern} matched ${JSON.stringify(matched)}`,
          ).toBe(true);
        }
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('literalAlternatives', () => {
  it('lists every string a pattern of literals matches, and nothing for anything else', () => {
    expect(literalAlternatives('timeout|declined')).toEqual(['timeout', 'declined']);
    expect(literalAlternatives('ERROR code=(22|39)')).toEqual(['ERROR code=22', 'ERROR code=39']);
    expect(literalAlternatives('a\\.b|(?:c)')).toEqual(['a.b', 'c']);
    for (const pattern of [
      '^ERROR',
      'ERROR$',
      '\\bERROR',
      'a|',
      'ab?',
      'a.c',
      'a\\d',
      '[ab]',
      'a{2}',
      'a\\nb',
    ])
      expect(literalAlternatives(pattern), pattern).toBeUndefined();
  });

  it('property: on every line, the linear engine matches exactly where the first of the strings is', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      'ab',
      'é',
      '🌍',
      '=',
      '.',
      '\\d',
      '[ab]',
      '^',
      '$',
      '\\b',
      '\\.',
      '(a|bc)',
      '(ab|)',
    );
    const quantifier = fc.constantFrom('', '', '', '', '?', '*', '+', '{2}');
    const branch = fc
      .array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.map(([a, q]) => (/^[\^$]$|\\b$/.test(a) ? a : a + q)).join(''));
    const patterns = fc.array(branch, { minLength: 1, maxLength: 3 }).map((branches) => branches.join('|'));
    const texts = fc.stringMatching(/^[abc =.é🌍\n]{0,60}$/u);
    let exact = 0;
    fc.assert(
      fc.property(patterns, texts, (pattern, text) => {
        const strings = literalAlternatives(pattern);
        if (strings === undefined) return;
        exact++;
        const regex = LinearRegex.compile(pattern);
        for (const line of text.split('\n')) {
          const match = regex.find(line);
          const firsts = strings.map((string) => line.indexOf(string)).filter((at) => at !== -1);
          expect(match?.start ?? -1, `${pattern} on ${JSON.stringify(line)}`).toBe(
            firsts.length === 0 ? -1 : Math.min(...firsts),
          );
        }
      }),
      { numRuns: 5_000 },
    );
    // The property is not vacuous: a good share of the patterns are plain literals.
    expect(exact).toBeGreaterThan(100);
  });
});
