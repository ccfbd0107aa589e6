import fc from 'fast-check';
import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { loadBpeCount } from './load-bpe-count.js';

const plain = { disallowedSpecial: new Set<string>() };

describe('loadBpeCount', () => {
  it('loads an encoding (200,000 ranks) without stalling the event loop', async () => {
    const probe = await probeEventLoop(() => loadBpeCount('o200k'));
    expect(probe.value('hello world')).toBe(2);
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  });

  it('counts exactly what gpt-tokenizer counts, words of any length and any script included', async () => {
    const o200k = await loadBpeCount('o200k');
    const cl100k = await loadBpeCount('cl100k');
    const unit = fc.constantFrom(
      'a',
      'Z',
      'x',
      ' ',
      '\n',
      '\t',
      '.',
      '"',
      '{',
      '1',
      'é',
      'ß',
      '日',
      'の',
      '한',
      '🚀',
      "'s",
    );
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.string({ unit, maxLength: 400 }),
      fc.string({ unit: 'binary', maxLength: 100 }),
    );
    fc.assert(
      fc.property(text, (sample) => {
        expect(o200k(sample)).toBe(o200kCount(sample, plain));
        expect(cl100k(sample)).toBe(cl100kCount(sample, plain));
      }),
      { numRuns: 400 },
    );
    for (const sample of [
      '',
      '<|endoftext|>',
      'x'.repeat(300),
      '\u{10FFFF}\uD800 lone surrogate',
      'a\r\n\r\n b',
    ]) {
      expect(o200k(sample)).toBe(o200kCount(sample, plain));
      expect(cl100k(sample)).toBe(cl100kCount(sample, plain));
    }
  });

  it('merges long words of few distinct letters (many pairs of equal rank) as gpt-tokenizer does', async () => {
    const o200k = await loadBpeCount('o200k');
    const cl100k = await loadBpeCount('cl100k');
    // Words of 13 bytes and more merge through the tree; a small alphabet makes equal ranks compete (leftmost wins).
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'x', 'é'), minLength: 13, maxLength: 700 });
    fc.assert(
      fc.property(word, (sample) => {
        expect(o200k(sample)).toBe(o200kCount(sample, plain));
        expect(cl100k(sample)).toBe(cl100kCount(sample, plain));
      }),
      { numRuns: 200 },
    );
  });

  it('merges words over 8,192 bytes (the tree keyed by rank alone) as gpt-tokenizer does', async () => {
    const o200k = await loadBpeCount('o200k');
    const word = fc
      .array(fc.constantFrom('a', 'b', 'x', 'ab', 'é'), { minLength: 8200, maxLength: 9000 })
      .map((units) => units.join(''));
    fc.assert(
      fc.property(word, (sample) => {
        expect(o200k(sample)).toBe(o200kCount(sample, plain));
      }),
      { numRuns: 4 },
    );
  });

  it('merges words on both sides of the narrow tree limit (8,192 bytes) exactly', async () => {
    const o200k = await loadBpeCount('o200k');
    // Random lower-case letters are one word each: every length merges through the heap.
    let state = 7;
    const letters = (length: number): string => {
      let word = '';
      for (let index = 0; index < length; index += 1) {
        state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
        word += String.fromCharCode(97 + ((state >> 8) % 26));
      }
      return word;
    };
    for (const length of [13, 511, 8191, 8192, 8193, 12_000]) {
      const word = letters(length);
      expect(o200k(word), `${length} letters`).toBe(o200kCount(word, plain));
    }
    // Three bytes a character: a word of 3,000 characters is 9,000 bytes.
    const wide = '日本'.repeat(1500);
    expect(o200k(wide)).toBe(o200kCount(wide, plain));
  });
});
