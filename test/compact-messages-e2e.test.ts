/**
 * End to end: an agent loop with the real OpenAI and Anthropic SDK clients against fake provider servers on
 * 127.0.0.1, a real SQLite store, and the real `scratchpad_read` tool. Old tool results are masked by
 * `compactMessages`; the "model" (the fake server's script) reads a stub from the request it receives and asks to
 * read the entry back; the tool gives it the exact original output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactMessages, createScratchpad, type Scratchpad } from '../src/index.js';
import { createSqliteDriver } from '../src/stores/sqlite/index.js';
import type { FakeRequest, FakeServer } from '../src/testing/index.js';
import { startFakeAnthropic, startFakeOpenAI } from '../src/testing/index.js';
import { createDefaultPreset, runTool } from '../src/tools/index.js';

let directory: string;
let scratchpad: Scratchpad;
let server: FakeServer | undefined;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'compact-e2e-'));
  scratchpad = createScratchpad({ driver: createSqliteDriver({ path: join(directory, 'store.db') }) });
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await scratchpad.close();
  await rm(directory, { recursive: true, force: true });
});

/** Output of the i-th command: 300 lines, one of which holds the needle the model will need. */
function commandOutput(index: number): string {
  const lines = Array.from({ length: 300 }, (_, line) => `cmd${index} line ${line}: build step ok`);
  lines[217] = `cmd${index} line 217: ERROR needle_${index} in parse_header`;
  return `${lines.join('\n')}\n`;
}

/** The first masked entry named in a request, as a model reading the stub would find it. */
function firstStubbedEntry(request: FakeRequest): string {
  const match = /stored whole as (\S+) /.exec(JSON.stringify(request.body.messages));
  if (!match) throw new Error('the request holds no stub');
  return match[1] as string;
}

const readTool = createDefaultPreset().tools.find((tool) => tool.name === 'scratchpad_read');

describe('compactMessages end to end', () => {
  it('OpenAI client: old results go out as stubs, and the model reads one back exactly', async () => {
    const session = scratchpad.session('openai-agent');
    server = await startFakeOpenAI([
      ...[0, 1, 2, 3].map((index) => ({
        toolCalls: [{ id: `call_${index}`, name: 'bash', arguments: { command: `make step${index}` } }],
      })),
      (request: FakeRequest) => ({
        toolCalls: [
          { id: 'call_read', name: 'scratchpad_read', arguments: { name: firstStubbedEntry(request) } },
        ],
      }),
      'The error is needle_0 in parse_header.',
    ]);
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0 });
    let messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: 'Why does the build fail?' },
    ];
    let answer = '';
    for (let round = 0; round < 6; round++) {
      const compacted = await compactMessages(messages, { session, keepRecent: 2, clearAtLeast: 0 });
      messages = compacted.messages;
      const completion = await client.chat.completions.create({ model: 'gpt-test', messages });
      const message = completion.choices[0]?.message;
      if (!message) throw new Error('no reply');
      messages.push({ role: 'assistant', content: message.content, tool_calls: message.tool_calls });
      if (!message.tool_calls?.length) {
        answer = message.content ?? '';
        break;
      }
      for (const call of message.tool_calls) {
        if (call.type !== 'function') continue;
        const content =
          call.function.name === 'scratchpad_read'
            ? (await runTool(readTool!, JSON.parse(call.function.arguments), { session })).text
            : commandOutput(Number(call.id.slice(5)));
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
    }
    expect(answer).toContain('needle_0');
    const bodies = server.requests.filter((request) => request.path === '/v1/chat/completions');
    // Request 5 (after four results, two kept) carried two stubs and the two newest outputs whole.
    const fifth = JSON.stringify(bodies[4]?.body.messages);
    expect(fifth.match(/\[Masked tool result: /g)).toHaveLength(2);
    expect(fifth).toContain('needle_3');
    expect(fifth).not.toContain('needle_0');
    // The read-back the model got holds the original output, needle line included.
    const readBack = messages.find(
      (message) => message.role === 'tool' && message.tool_call_id === 'call_read',
    );
    expect(readBack?.content).toContain('cmd0 line 217: ERROR needle_0 in parse_header');
    const stored = await session.read('bash_1', { type: 'full' });
    expect(stored.content).toBe(commandOutput(0));
  });

  it('Anthropic client: tool_result blocks are masked, the newest user turn is sent as it was', async () => {
    const session = scratchpad.session('anthropic-agent');
    server = await startFakeAnthropic([
      ...[0, 1, 2].map((index) => ({
        toolCalls: [{ id: `toolu_${index}`, name: 'bash', arguments: { command: `make step${index}` } }],
      })),
      'Done.',
    ]);
    const client = new Anthropic({ baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0 });
    let messages: MessageParam[] = [{ role: 'user', content: 'Why does the build fail?' }];
    for (let round = 0; round < 5; round++) {
      const compacted = await compactMessages(messages, { session, keepRecent: 1, clearAtLeast: 0 });
      messages = compacted.messages;
      const reply = await client.messages.create({ model: 'claude-test', max_tokens: 1024, messages });
      messages.push({ role: 'assistant', content: reply.content });
      const uses = reply.content.filter((block) => block.type === 'tool_use');
      if (uses.length === 0) break;
      messages.push({
        role: 'user',
        content: uses.map((use) => ({
          type: 'tool_result' as const,
          tool_use_id: use.id,
          content: commandOutput(Number(use.id.slice(6))),
        })),
      });
    }
    const bodies = server.requests.filter((request) => request.path === '/v1/messages');
    const last = bodies.at(-1)?.body.messages as MessageParam[];
    const sent = JSON.stringify(last);
    expect(sent.match(/\[Masked tool result: /g)).toHaveLength(2);
    expect(JSON.stringify(last.at(-1))).toContain('needle_2');
    for (const index of [0, 1]) {
      const read = await runTool(readTool!, { name: `bash_${index + 1}`, regex: 'needle' }, { session });
      expect(read.text).toContain(`needle_${index}`);
    }
  });
});
