import { describe, expect, it } from 'vitest';
import { restoreHeadline, searchTerms } from './postgres-search.js';

describe('postgres search helpers', () => {
  it('takes words the way the scan search does, dropping query syntax', () => {
    expect(searchTerms('Database & migration | !"quoted" <-> a:* Data_base')).toEqual([
      'database',
      'migration',
      'quoted',
      'a',
      'data_base',
    ]);
    expect(searchTerms('\u0000 () :* !')).toEqual([]);
    expect(searchTerms(Array.from({ length: 40 }, (_, index) => `w${index}`).join(' '))).toHaveLength(32);
  });

  it('puts the original punctuation back under a headline made from spaced words', () => {
    const piece = 'boot ok, then scheduler/worker crashed [x] at app.log:12';
    expect(restoreHeadline(piece, 'then scheduler [worker] crashed  x  at app log:12')).toBe(
      'then scheduler/[worker] crashed [x] at app.log:12',
    );
    expect(restoreHeadline('astral 😀 then/[needle]', 'astral 😀 then  [needle] ')).toBe(
      'astral 😀 then/[[needle]]',
    );
    expect(restoreHeadline(piece, 'not from this piece')).toBe('not from this piece');
  });
});
