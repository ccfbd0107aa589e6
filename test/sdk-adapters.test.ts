// The adapters against the SDKs they target: each adapter's output goes straight into the SDK call (so
// `npm run typecheck`, strict, checks the types), and each call runs once: against a fake server on 127.0.0.1
// that speaks the provider's wire protocol for the OpenAI and Anthropic clients, through the AI SDK's own
// language-model interface (MockLanguageModelV3) for `generateText`, which has no provider package here.
import Anthropic from '@anthropic-ai/sdk';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createScratchpad } from '../src/service/scratchpad.js';
import { createMemoryDriver } from '../src/stores/memory/index.js';
import { type FakeServer, startFakeAnthropic, startFakeOpenAI } from '../src/testing/fake-servers/index.js';
import { toAISDKTools } from '../src/tools/adapters/ai-sdk-tools.js';
import { runAnthropicToolUse, toAnthropicTools } from '../src/tools/adapters/anthropic-tools.js';
import {
  runOpenAIResponsesCall,
  toOpenAIResponsesTools,
} from '../src/tools/adapters/openai-responses-tools.js';
import { runOpenAIToolCall, toOpenAITools } from '../src/tools/adapters/openai-tools.js';
import { createDefaultPreset } from '../src/tools/default/default-preset.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function setup() {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  return { session, tools: createDefaultPreset().tools, context: { session } };
}

const writeCall = { name: 'scratchpad_write', arguments: { name: 'note', content: 'kept' } };

describe('adapters typed against the SDKs', () => {
  it('Anthropic: toAnthropicTools goes to messages.create, a tool_use block runs, its result goes back', async () => {
    const { tools, context, session } = setup();
    const server = await startFakeAnthropic([{ toolCalls: [writeCall] }, 'done']);
    servers.push(server);
    const client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL });
    const first = await client.messages.create({
      model: 'claude-test',
      max_tokens: 256,
      tools: toAnthropicTools(tools),
      messages: [{ role: 'user', content: 'keep a note' }],
    });
    const toolUses = first.content.filter((block) => block.type === 'tool_use');
    expect(toolUses).toHaveLength(1);
    const results = await Promise.all(toolUses.map((block) => runAnthropicToolUse(tools, block, context)));
    const second = await client.messages.create({
      model: 'claude-test',
      max_tokens: 256,
      tools: toAnthropicTools(tools),
      messages: [
        { role: 'user', content: 'keep a note' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: results },
      ],
    });
    expect(second.content).toMatchObject([{ type: 'text', text: 'done' }]);
    expect(await session.read('note')).toMatchObject({ content: 'kept' });
    expect(server.requests[0]?.body.tools[0]).toMatchObject({ name: 'scratchpad_write' });
  });

  it('OpenAI Chat Completions: toOpenAITools goes to chat.completions.create, tool calls run', async () => {
    const { tools, context, session } = setup();
    const server = await startFakeOpenAI([{ toolCalls: [writeCall] }, 'done']);
    servers.push(server);
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL });
    const first = await client.chat.completions.create({
      model: 'gpt-test',
      tools: toOpenAITools(tools),
      messages: [{ role: 'user', content: 'keep a note' }],
    });
    const message = first.choices[0]!.message;
    const results = await Promise.all(
      (message.tool_calls ?? []).map((call) => runOpenAIToolCall(tools, call, context)),
    );
    expect(results).toHaveLength(1);
    const second = await client.chat.completions.create({
      model: 'gpt-test',
      tools: toOpenAITools(tools),
      messages: [{ role: 'user', content: 'keep a note' }, message, ...results],
    });
    expect(second.choices[0]?.message.content).toBe('done');
    expect(await session.read('note')).toMatchObject({ content: 'kept' });
  });

  it('OpenAI Responses: toOpenAIResponsesTools goes to responses.create, function calls run', async () => {
    const { tools, context, session } = setup();
    const server = await startFakeOpenAI([{ toolCalls: [writeCall] }, 'done']);
    servers.push(server);
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL });
    const first = await client.responses.create({
      model: 'gpt-test',
      tools: toOpenAIResponsesTools(tools),
      input: 'keep a note',
    });
    const calls = first.output.filter((item) => item.type === 'function_call');
    expect(calls).toHaveLength(1);
    const outputs = await Promise.all(calls.map((call) => runOpenAIResponsesCall(tools, call, context)));
    const second = await client.responses.create({
      model: 'gpt-test',
      tools: toOpenAIResponsesTools(tools),
      input: [{ role: 'user', content: 'keep a note' }, ...calls, ...outputs],
    });
    expect(second.output_text).toBe('done');
    expect(server.requests[1]?.body.input.at(-1)).toMatchObject({
      type: 'function_call_output',
      call_id: calls[0]?.call_id,
    });
    expect(await session.read('note')).toMatchObject({ content: 'kept' });
  });

  it('AI SDK: toAISDKTools goes to generateText, which validates the input and runs the tool', async () => {
    const { tools, context, session } = setup();
    const replies = [
      {
        content: [
          {
            type: 'tool-call' as const,
            toolCallId: 'c1',
            toolName: 'scratchpad_write',
            input: JSON.stringify(writeCall.arguments),
          },
        ],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      },
      {
        content: [{ type: 'text' as const, text: 'done' }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
      },
    ];
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ ...replies.shift()!, usage, warnings: [] }),
    });
    const result = await generateText({
      model,
      tools: toAISDKTools(tools, context),
      stopWhen: stepCountIs(3),
      prompt: 'keep a note',
    });
    expect(result.text).toBe('done');
    expect(result.steps[0]?.toolResults[0]?.output).toMatch(/note/);
    expect(await session.read('note')).toMatchObject({ content: 'kept' });
  });
});
