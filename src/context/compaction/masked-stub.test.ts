import fc from 'fast-check';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { compactMessages } from './compact-messages.js';

function conversation(results: string[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Find the failing test.' }];
  results.forEach((result, index) => {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `call_${index}`, type: 'function', function: { name: 'bash', arguments: '{}' } }],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${index}`, content: result });
  });
  return messages;
}

describe('the stub of a masked result', () => {
  it('names the entry, its size and the read call; parts past 50 lines; an expiry only when there is one', async () => {
    const scratchpad = createScratchpad({ driver: createMemoryDriver() });
    const short = 'collected 3 items\n'.repeat(30);
    const long = 'collected 3 items\n'.repeat(51);
    const kept = await compactMessages(conversation([short, long, 'newest']), {
      session: scratchpad.session('kept'),
      keepRecent: 1,
      clearAtLeast: 0,
    });
    const [shortStub, longStub] = [1, 2].map(
      (index) => (kept.messages[index * 2] as { content: string }).content,
    );
    expect(shortStub).toBe(
      '[Masked tool result: bash output stored whole as bash_1 (540 chars, 30 lines). Read it back: scratchpad_read {"name": "bash_1"}]',
    );
    expect(longStub).toBe(
      '[Masked tool result: bash output stored whole as bash_2 (918 chars, 51 lines). Read it back: scratchpad_read {"name": "bash_2"}, a part with "lines": "1:50" or "regex": "…"]',
    );
    const expiring = await compactMessages(conversation([short, 'newest']), {
      session: scratchpad.session('expiring'),
      keepRecent: 1,
      clearAtLeast: 0,
      ttlMs: 3_600_000,
    });
    const entry = expiring.masked[0]?.entry;
    expect((expiring.messages[2] as { content: string }).content).toContain(
      `(540 chars, 30 lines; expires ${new Date(entry?.expiresAt as number).toISOString()}).`,
    );
    await scratchpad.close();
  });

  it('property: a masked result always shrinks, and its stub suggests parts exactly when the entry has over 50 lines', async () => {
    const scratchpad = createScratchpad({ driver: createMemoryDriver() });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc
            .array(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 70 })
            .map((lines) => lines.join('\n')),
          { minLength: 2, maxLength: 6 },
        ),
        fc.option(fc.integer({ min: 1, max: 10 ** 12 }), { nil: null }),
        fc.constantFrom('bash', 'x'.repeat(120), 'str_replace_editor'),
        async (results, ttlMs, tool) => {
          const messages = conversation(results).map((message) =>
            message.role === 'assistant'
              ? {
                  ...message,
                  tool_calls: [{ ...message.tool_calls![0]!, function: { name: tool, arguments: '{}' } }],
                }
              : message,
          ) as ChatCompletionMessageParam[];
          const result = await compactMessages(messages, {
            session: scratchpad.session(`p${run++}`),
            keepRecent: 1,
            clearAtLeast: 0,
            ttlMs,
          });
          for (const item of result.masked) {
            expect(item.stubTokens).toBeLessThan(item.tokens);
            const stub = (result.messages[item.messageIndex] as { content: string }).content;
            expect(stub.includes('a part with')).toBe(item.entry.lines > 50);
            expect(stub.includes('; expires ')).toBe(ttlMs !== null);
          }
        },
      ),
      { numRuns: 60 },
    );
    await scratchpad.close();
  });
});
