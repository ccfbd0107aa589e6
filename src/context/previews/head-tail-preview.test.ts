import { describe, expect, it } from 'vitest';
import { headTailPreview } from './head-tail-preview.js';

describe('headTailPreview (seed 000)', () => {
  it('keeps the first 500 and last 500 characters around the exact omitted count', () => {
    const text = `${'a'.repeat(500)}${'m'.repeat(88_042)}${'z'.repeat(500)}`;
    expect(headTailPreview(text)).toBe(
      `${'a'.repeat(500)}\n[... 88042 characters omitted ...]\n${'z'.repeat(500)}`,
    );
  });

  it('reproduces the shape of the seed example (log head, marker on its own line, log tail)', () => {
    const lines = Array.from(
      { length: 3000 },
      (_, index) => `INFO 2026-04-26 10:00:01 event number ${index}\n`,
    );
    const text = `${lines.join('')}ERROR 2026-04-26 23:59:59 LAST_CRITICAL_EVENT\n`;
    const summary = headTailPreview(text);
    expect(
      summary.startsWith(
        'INFO 2026-04-26 10:00:01 event number 0\nINFO 2026-04-26 10:00:01 event number 1\n',
      ),
    ).toBe(true);
    expect(summary.endsWith('ERROR 2026-04-26 23:59:59 LAST_CRITICAL_EVENT\n')).toBe(true);
    expect(summary).toContain(`\n[... ${text.length - 1000} characters omitted ...]\n`);
  });

  it('returns text of at most 1,000 characters whole, and omits 1 character at 1,001', () => {
    expect(headTailPreview('x'.repeat(1000))).toBe('x'.repeat(1000));
    expect(headTailPreview('x'.repeat(1001))).toBe(
      `${'x'.repeat(500)}\n[... 1 characters omitted ...]\n${'x'.repeat(500)}`,
    );
    expect(headTailPreview('')).toBe('');
  });

  it('counts code points, never splitting a surrogate pair', () => {
    const text = '😀'.repeat(1200);
    const summary = headTailPreview(text);
    expect(summary).toBe(`${'😀'.repeat(500)}\n[... 200 characters omitted ...]\n${'😀'.repeat(500)}`);
  });

  it('takes other head and tail sizes', () => {
    expect(headTailPreview('abcdefghij', { head: 2, tail: 3 })).toBe(
      'ab\n[... 5 characters omitted ...]\nhij',
    );
  });
});
