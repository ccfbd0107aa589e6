import { describe, expect, it } from 'vitest';
import { restoreHeadline } from './postgres-search.js';

describe('postgres search helpers', () => {
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
