import fc from 'fast-check';
import { countTokens as countWhole } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { countTokens, loadTokenCounter } from './token-counter.js';

const plain = { disallowedSpecial: new Set<string>() };

/** Seeded letters without a space, the tokenizer's worst case (one pre-token as long as the text). */
function letters(length: number, seed = 7): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const codes = new Array<string>(length);
  let state = seed;
  for (let index = 0; index < length; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    codes[index] = alphabet[(state >> 8) % alphabet.length]!;
  }
  return codes.join('');
}

describe('TokenCounter', () => {
  it('counts text with ordinary spaces exactly as the whole-text tokenizer does', async () => {
    const counter = await loadTokenCounter();
    const word = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }),
      fc.constantFrom(
        'the',
        "don't",
        '12345',
        '{"a":',
        '[1,2]',
        '—',
        'naïve',
        '日本語',
        '🚀',
        '\n\n',
        '\t',
        '  ',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 3_000 }), async (words) => {
        const text = words.join(' ');
        expect(await counter.count(text)).toBe(countWhole(text, plain));
        expect(counter.countSync(text)).toBe(countWhole(text, plain));
      }),
      { numRuns: 40 },
    );
  });

  it('stays within a fraction of a percent of the whole count on long runs without spaces', async () => {
    const counter = await loadTokenCounter();
    for (const text of [letters(20_000), 'x'.repeat(20_000), '='.repeat(20_000), `${' '.repeat(5_000)}x`]) {
      const whole = countWhole(text, plain);
      const pieces = await counter.count(text);
      expect(Math.abs(pieces - whole)).toBeLessThanOrEqual(Math.max(2, whole * 0.01));
    }
  });

  it('counts special-token strings as plain text', async () => {
    expect(await countTokens('<|endoftext|>')).toBe(countWhole('<|endoftext|>', plain));
  });

  it('truncates long text piece by piece: within budget, and one more grapheme would not fit', async () => {
    const counter = await loadTokenCounter();
    const prose = 'Deploy step 3 failed: timeout after 30s (host db-2); retry scheduled. '.repeat(30_000);
    for (const budget of [1, 999, 2_000, 150_000]) {
      const kept = await counter.truncate(prose, budget);
      expect(prose.startsWith(kept)).toBe(true);
      expect(countWhole(kept, plain)).toBeLessThanOrEqual(budget);
      expect(countWhole(prose.slice(0, kept.length + 1), plain)).toBeGreaterThan(budget);
    }
    const run = letters(100_000);
    const kept = await counter.truncate(run, 2_000);
    expect(counter.countSync(kept)).toBeLessThanOrEqual(2_000);
    expect(counter.countSync(kept)).toBeGreaterThan(1_990);
  });

  it('counts 2 MB of letters without a space, 100 K × "x" and 2 MB of prose without stalling the event loop', async () => {
    const counter = await loadTokenCounter();
    for (const text of [
      letters(2_000_000),
      'x'.repeat(100_000),
      'The quick brown fox, 42 times. '.repeat(70_000),
    ]) {
      const probe = await probeEventLoop(() => counter.count(text));
      expect(probe.value).toBeGreaterThan(text.length / 10);
      expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
    }
  });
});
