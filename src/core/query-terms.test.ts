import { describe, expect, it } from 'vitest';
import { queryTerms } from './query-terms.js';

describe('queryTerms', () => {
  it('takes the words of a query, dropping any query syntax', () => {
    expect(queryTerms('Database & migration | !"quoted" <-> a:* Data_base')).toEqual([
      'database',
      'migration',
      'quoted',
      'a',
      'data_base',
    ]);
    expect(queryTerms('\u0000 () :* !')).toEqual([]);
    // Combining marks belong to their word: a Thai word with vowel and tone marks is one term.
    expect(queryTerms('ค้นหา देवनागरी')).toEqual(['ค้นหา', 'देवनागरी']);
    expect(queryTerms(Array.from({ length: 40 }, (_, index) => `w${index}`).join(' '))).toHaveLength(32);
  });
});
