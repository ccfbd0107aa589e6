import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { compactMessages } from '../compaction/compact-messages.js';
import { createOffloadPolicy } from '../offload/offload-policy.js';
import { createOffloader } from '../offload/offloader.js';
import { loadTokenizer } from './named-tokenizers.js';

const SAMPLES = {
  prose: 'The quick brown fox jumps over the lazy dog, and the build failed at step 3 of 7. '.repeat(40),
  code: 'def parse_header(raw: bytes) -> dict:\n    return {k.strip(): v for k, v in (l.split(b":", 1) for l in raw.splitlines())}\n'.repeat(
    30,
  ),
  japanese: 'ビルドはステップ3で失敗しました。ディスクの容量が足りません。'.repeat(40),
};
const plain = { disallowedSpecial: new Set<string>() };

describe('named tokenizers', () => {
  it('count exactly what the encoding counts on prose and code, and within 1% on text without spaces', async () => {
    const o200k = await loadTokenizer('o200k');
    const cl100k = await loadTokenizer('cl100k');
    for (const text of [SAMPLES.prose, SAMPLES.code]) {
      expect(o200k.count(text)).toBe(o200kCount(text, plain));
      expect(cl100k.count(text)).toBe(cl100kCount(text, plain));
    }
    // Japanese has no spaces: it is cut every 512 characters, each cut may change the count by a token.
    expect(Math.abs(o200k.count(SAMPLES.japanese) / o200kCount(SAMPLES.japanese, plain) - 1)).toBeLessThan(
      0.01,
    );
    expect(Math.abs(cl100k.count(SAMPLES.japanese) / cl100kCount(SAMPLES.japanese, plain) - 1)).toBeLessThan(
      0.01,
    );
    expect(o200k.count('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('countUpTo stops soon after the limit, and is exact below it', async () => {
    const o200k = await loadTokenizer('o200k');
    const big = SAMPLES.prose.repeat(500);
    const partial = o200k.countUpTo(big, 100);
    expect(partial).toBeGreaterThan(100);
    expect(partial).toBeLessThan(o200k.count(big));
    expect(o200k.countUpTo(SAMPLES.code, 1_000_000)).toBe(o200k.count(SAMPLES.code));
  });

  it('takes a host function, and refuses an unknown name with a typed error', async () => {
    const custom = await loadTokenizer((text) => text.length);
    expect([custom.name, custom.count('abcd'), custom.countUpTo('abcdef', 2)]).toEqual(['custom', 4, 6]);
    const error = await loadTokenizer('p50k' as never).catch((caught: unknown) => caught);
    expect(ScratchpadError.hasCode(error, 'CONFIG_INVALID')).toBe(true);
    expect(() => createOffloadPolicy({ measure: 'tokens', tokenizer: 'gpt2' as never })).toThrow(
      /Unknown tokenizer/,
    );
  });

  it('offload thresholds in tokens: Japanese over 300 o200k tokens is offloaded where the 4-chars estimate keeps it inline', async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('tokens');
    const japanese = SAMPLES.japanese.slice(0, 1000);
    const exact = createOffloader({
      session,
      policy: createOffloadPolicy({ measure: 'tokens', threshold: 300, minSavings: 0 }),
    });
    const estimated = createOffloader({
      session,
      policy: createOffloadPolicy({
        measure: 'tokens',
        tokenizer: (text) => Math.ceil(text.length / 4),
        threshold: 300,
        minSavings: 0,
      }),
    });
    expect((await loadTokenizer('o200k')).count(japanese)).toBeGreaterThan(300);
    expect((await exact.process({ tool: 'fetch', result: japanese })).offloaded).toBe(true);
    expect((await estimated.process({ tool: 'fetch', result: japanese })).offloaded).toBe(false);
    const prose = SAMPLES.prose.slice(0, 1000);
    expect((await exact.process({ tool: 'fetch', result: prose })).offloaded).toBe(false);
  });

  it('compactMessages counts with a named tokenizer', async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('compact-tokens');
    const messages = [
      { role: 'user', content: 'task' },
      { role: 'tool', tool_call_id: 'a', content: SAMPLES.japanese },
      { role: 'tool', tool_call_id: 'b', content: SAMPLES.code },
    ];
    const result = await compactMessages(messages, {
      session,
      keepRecent: 1,
      clearAtLeast: 0,
      countTokens: 'cl100k',
    });
    expect(result.masked[0]?.tokens).toBe((await loadTokenizer('cl100k')).count(SAMPLES.japanese));
    expect(result.masked[0]?.tokens).toBeGreaterThan(SAMPLES.japanese.length / 2);
  });
});
