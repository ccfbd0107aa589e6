import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from './token-counter.js';
import { truncateToTokens } from './truncate-to-tokens.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function graphemeBoundaries(text: string): Set<number> {
  const boundaries = new Set([0]);
  for (const { index, segment } of segmenter.segment(text)) boundaries.add(index + segment.length);
  return boundaries;
}

function splitsSurrogatePair(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

const codePoints = (text: string): number => Array.from(text).length;

describe('truncateToTokens', () => {
  it('returns the text unchanged when it fits', () => {
    expect(truncateToTokens('hello world', 5, codePoints)).toBe('hello world'.slice(0, 5));
    expect(truncateToTokens('hello', 5, codePoints)).toBe('hello');
    expect(truncateToTokens('', 0, codePoints)).toBe('');
  });

  it('keeps grapheme clusters whole, and falls back to code points when the first one is over budget', () => {
    const family = '👨‍👩‍👧'; // 5 code points, one grapheme
    expect(truncateToTokens(`ab${family}c`, 4, codePoints)).toBe('ab');
    expect(truncateToTokens(family, 2, codePoints)).toBe('👨\u200d');
  });

  it('never exceeds the budget and never splits a character (real tokenizer, unicode content)', async () => {
    const tokenizer = await loadTokenCounter();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 400 }),
          fc.string({ unit: 'binary', maxLength: 400 }),
        ),
        fc.integer({ min: 1, max: 60 }),
        async (text, maxTokens) => {
          const result = await tokenizer.truncate(text, maxTokens);
          expect(text.startsWith(result)).toBe(true);
          expect(tokenizer.countSync(result)).toBeLessThanOrEqual(maxTokens);
          expect(splitsSurrogatePair(text, result.length)).toBe(false);
          if (tokenizer.countSync(text) <= maxTokens) expect(result).toBe(text);
          const firstGrapheme = segmenter.segment(text)[Symbol.iterator]().next().value?.segment ?? '';
          if (result.length >= firstGrapheme.length)
            expect(graphemeBoundaries(text).has(result.length)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps as much as fits: one more grapheme would exceed the budget', async () => {
    const tokenizer = await loadTokenCounter();
    const text =
      'The plan: 1. migrate the database; 2. deploy blue/green; 3. verify. Ünïcödé ✓ 日本語のテキスト 🚀🚀. '.repeat(
        40,
      );
    const result = await tokenizer.truncate(text, 100);
    expect(countTokens(result)).toBeLessThanOrEqual(100);
    const next = text.slice(
      0,
      result.length + [...segmenter.segment(text.slice(result.length))][0]!.segment.length,
    );
    expect(countTokens(next)).toBeGreaterThan(100);
  });

  it('counts special-token strings as plain text instead of throwing', async () => {
    const tokenizer = await loadTokenCounter();
    expect(tokenizer.countSync('<|endoftext|>')).toBeGreaterThan(1);
    expect(tokenizer.encoding).toBe('o200k_base');
  });
});
