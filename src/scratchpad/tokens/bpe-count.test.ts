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
});
