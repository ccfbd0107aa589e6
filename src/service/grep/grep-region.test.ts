import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinearRegex } from '../../core/linear-regex.js';
import { LineSearcher } from './grep-region.js';

/** Indexes of the lines of `text` where `searcher` finds a match (the whole text as one region). */
function matchingLines(searcher: LineSearcher, text: string): number[] {
  const buffer = Buffer.from(text, 'utf8');
  const { at } = searcher.find(buffer, {
    end: buffer.byteLength,
    last: true,
    exact: Number.MAX_SAFE_INTEGER,
    limit: Number.MAX_SAFE_INTEGER,
  });
  return at.map((offset) => buffer.subarray(0, offset).toString('utf8').split('\n').length - 1);
}

/** The same, line by line with the linear engine: what the grep must answer. */
function expectedLines(pattern: string, text: string): number[] {
  const regex = LinearRegex.compile(pattern, { ignoreCase: true });
  return text.split('\n').flatMap((line, index) => (regex.test(line) ? [index] : []));
}

describe('LineSearcher ignoring case', () => {
  it('finds literal alternatives and required literals with folded needles, without the pattern scan', () => {
    const alternatives = new LineSearcher('FATAL|checksum', true);
    expect(alternatives.needles.map(String)).toEqual(['FATAL', 'checksum']);
    expect(alternatives.exact).toBe(true);
    const required = new LineSearcher('error [0-9]+ timeout', true);
    expect(required.needles.length).toBeGreaterThan(0);
    expect(required.exact).toBe(false);
    const text = 'ok\nChecksum bad\nfatal: x\nERROR 42 TIMEOUT\nerror x timeout\nnothing';
    expect(matchingLines(alternatives, text)).toEqual([1, 2]);
    expect(matchingLines(required, text)).toEqual([3]);
  });

  it('finds the lines where k or s appears as K (U+212A) or ſ (U+017F), as RE2 folds them', () => {
    const searcher = new LineSearcher('checksum|task', true);
    const text = 'a\nCHEC\u212aSUM failed\nta\u017fk\nTASK\nchecksun';
    expect(matchingLines(searcher, text)).toEqual([1, 2, 3]);
  });

  it('answers as the linear engine does, line by line (property)', () => {
    const letter = fc.constantFrom('a', 'k', 's', 'K', 'S', 'x', '\u212a', '\u017f', ' ', 'é');
    const word = fc
      .array(fc.constantFrom('a', 'k', 's', 'x', 'K'), { minLength: 1, maxLength: 3 })
      .map((w) => w.join(''));
    const line = fc.array(letter, { maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 3 }),
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        (words, lines, required) => {
          const pattern = required ? `${words[0]}.?${words.slice(1).join('|') || 'a'}` : words.join('|');
          const text = lines.join('\n');
          expect(matchingLines(new LineSearcher(pattern, true), text)).toEqual(expectedLines(pattern, text));
        },
      ),
      { numRuns: 400 },
    );
  });
});
