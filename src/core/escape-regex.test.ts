import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapedLiterals, escapeRegex } from './escape-regex.js';

describe('escapedLiterals', () => {
  it('gives back the literals of any alternation of escaped texts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 24 }), { minLength: 1, maxLength: 4 }),
        (texts) => {
          expect(escapedLiterals(texts.map(escapeRegex).join('|'))).toEqual(texts);
        },
      ),
    );
  });

  it('is undefined for a pattern that is not an escaped literal', () => {
    for (const pattern of ['a.b', 'a+', '[ab]', 'a\\d', 'a\\', '(x)'])
      expect(escapedLiterals(pattern)).toBeUndefined();
  });
});
