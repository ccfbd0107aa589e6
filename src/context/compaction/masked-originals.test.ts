import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelMessage } from 'ai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Entry } from '../../core/entry.js';
import { createScratchpad, type SessionScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { compactMessages } from './compact-messages.js';
import { rebuildMaskedResult, type StoredResultForm } from './stored-result.js';

let session: SessionScratchpad;

beforeEach(() => {
  session = createScratchpad({ driver: createMemoryDriver() }).session('originals');
});

/** `count` numbered lines joined by `\n`, with no newline after the last. */
function lines(label: string, count: number): string {
  return Array.from({ length: count }, (_, index) => `${label} line ${index + 1}: INFO all good`).join('\n');
}

async function stored(entry: Entry): Promise<{ text: string; form: StoredResultForm }> {
  const read = await session.read(entry.name, { type: 'full' });
  expect(read.complete).toBe(true);
  return { text: read.content, form: entry.metadata.storedAs as StoredResultForm };
}

/** `"12,345 chars, 67 lines"` of a stub, as numbers. */
function stubSizes(stub: string): { chars: number; lines: number } {
  const match = /([\d,]+) chars, ([\d,]+) lines/.exec(stub);
  if (!match) throw new Error(`no sizes in ${stub}`);
  return { chars: Number(match[1]?.replaceAll(',', '')), lines: Number(match[2]?.replaceAll(',', '')) };
}

describe('masked results are stored so that the original rebuilds exactly', () => {
  it('a text with a lone UTF-16 surrogate is stored as JSON (UTF-8 would turn it into U+FFFD)', async () => {
    const content = `${lines('odd', 150)}\n half a pair: \ud83d here`;
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Check.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'bash', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content },
      { role: 'tool', tool_call_id: 'c2', content: 'latest' },
    ];
    const result = await compactMessages(messages, { session, keepRecent: 1, clearAtLeast: 0 });
    const [masked] = result.masked;
    if (!masked) throw new Error('nothing masked');
    const entry = await stored(masked.entry);
    expect(entry.form).toBe('json');
    expect(rebuildMaskedResult('openai', entry)).toBe(content);
  });

  it('OpenAI: a tool message of two text parts is stored as the JSON of its parts, not their text joined', async () => {
    const parts = [
      { type: 'text' as const, text: lines('first', 100) },
      { type: 'text' as const, text: lines('second', 100) },
    ];
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Check.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'bash', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: parts },
      { role: 'tool', tool_call_id: 'c2', content: 'latest' },
    ];
    const result = await compactMessages(messages, { session, keepRecent: 1, clearAtLeast: 0 });
    const [masked] = result.masked;
    if (!masked) throw new Error('nothing masked');
    const entry = await stored(masked.entry);
    expect(entry.text).toBe(JSON.stringify(parts));
    expect(entry.form).toBe('json');
    expect(rebuildMaskedResult('openai', entry)).toEqual(parts);
    const stub = (result.messages[2] as { content: string }).content;
    expect(stub).toContain('the JSON of its content');
    // What the stub says is true of the entry it names, which holds exactly what was sent.
    expect(stubSizes(stub)).toEqual({ chars: masked.entry.chars, lines: masked.entry.lines });
    expect(masked.entry.lines).toBe(entry.text.split('\n').length);
  });

  it('OpenAI: one plain text part is stored as its text and rebuilds as that one part', async () => {
    const parts = [{ type: 'text' as const, text: lines('only', 200) }];
    const messages: ChatCompletionMessageParam[] = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: parts },
      { role: 'tool', tool_call_id: 'c2', content: 'latest' },
    ];
    const result = await compactMessages(messages, { session, keepRecent: 1, clearAtLeast: 0 });
    const entry = await stored(result.masked[0]?.entry as Entry);
    expect(entry).toEqual({ text: parts[0]?.text, form: 'text-part' });
    expect(rebuildMaskedResult('openai', entry)).toEqual(parts);
    expect(result.masked[0]?.entry.lines).toBe(200);
  });

  it('Anthropic: a single text block with cache_control keeps it (stored as JSON), a plain one is its text', async () => {
    const cached = [
      { type: 'text' as const, text: lines('cached', 150), cache_control: { type: 'ephemeral' as const } },
    ];
    const messages: MessageParam[] = [
      { role: 'user', content: 'Go.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't1', name: 'read', input: {} },
          { type: 'tool_use', id: 't2', name: 'read', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: cached },
          { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: lines('plain', 150) }] },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't3', name: 'read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't3', content: 'latest' }] },
    ];
    const result = await compactMessages(messages, { session, keepRecent: 1, clearAtLeast: 0 });
    expect(result.masked).toHaveLength(2);
    const first = await stored(result.masked[0]?.entry as Entry);
    expect(first.form).toBe('json');
    expect(rebuildMaskedResult('anthropic', first)).toEqual(cached);
    const second = await stored(result.masked[1]?.entry as Entry);
    expect(second.form).toBe('text-part');
    expect(rebuildMaskedResult('anthropic', second)).toEqual([{ type: 'text', text: lines('plain', 150) }]);
  });

  it('AI SDK: a JSON output and a text output with providerOptions rebuild as the whole output object', async () => {
    const json = { type: 'json' as const, value: { rows: Array.from({ length: 50 }, (_, id) => ({ id })) } };
    const withOptions = {
      type: 'text' as const,
      value: lines('opts', 80),
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    };
    const messages: ModelMessage[] = [
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'sql', output: json },
          { type: 'tool-result', toolCallId: 'b', toolName: 'sql', output: withOptions },
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'sql',
            output: { type: 'text', value: 'latest' },
          },
        ],
      },
    ];
    const result = await compactMessages(messages, { session, keepRecent: 1, clearAtLeast: 0 });
    expect(result.masked.map((item) => item.callId)).toEqual(['a', 'b']);
    expect(rebuildMaskedResult('ai-sdk', await stored(result.masked[0]?.entry as Entry))).toEqual(json);
    expect(rebuildMaskedResult('ai-sdk', await stored(result.masked[1]?.entry as Entry))).toEqual(
      withOptions,
    );
  });
});
