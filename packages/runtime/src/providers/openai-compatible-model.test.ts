import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { closedPortURL } from 'llm-scratchpad/test';
import type { FakeServer } from 'llm-scratchpad/test';
import { startFakeOpenAI } from 'llm-scratchpad/test';
import type { FakeScriptStep } from 'llm-scratchpad/test';
import {
  INVALID_TOOL_ARGUMENTS,
  invalidToolArguments,
  type ModelToolDefinition,
} from '../model/language-model.js';
import { createOpenAICompatible } from './openai-compatible-model.js';

const webFetch: ModelToolDefinition = {
  name: 'web_fetch',
  description: 'Fetch a URL.',
  parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
};

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: FakeScriptStep[], apiKey?: string) {
  server = await startFakeOpenAI(script, apiKey ? { apiKey } : {});
  return server;
}

function model(fake: FakeServer, extra: { apiKey?: string; maxRetries?: number } = {}) {
  return createOpenAICompatible({
    baseURL: fake.baseURL,
    model: 'qwen2.5-7b-instruct',
    maxRetries: 0,
    env: {},
    ...extra,
  });
}

// biome-ignore lint/suspicious/noExplicitAny: tests read fields of whatever was thrown
function thrown(action: () => unknown): any {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

function completionBodies(fake: FakeServer) {
  return fake.requests
    .filter((request) => request.path === '/v1/chat/completions')
    .map((request) => request.body);
}

describe('createOpenAICompatible', () => {
  it('answers plain text, with the system prompt as a system message', async () => {
    const fake = await start([{ text: 'Hello.', usage: { inputTokens: 12, outputTokens: 2 } }]);
    const result = await model(fake).doGenerate({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(result).toMatchObject({
      text: 'Hello.',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 2 },
    });
    expect((result.raw as { object: string }).object).toBe('chat.completion');
    expect(completionBodies(fake)[0]).toMatchObject({
      model: 'qwen2.5-7b-instruct',
      stream: false,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('returns one tool call with parsed arguments and sends tools as function tools', async () => {
    const fake = await start([
      { toolCalls: [{ id: 'call_a', name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } }] },
    ]);
    const result = await model(fake).doGenerate({
      messages: [{ role: 'user', content: 'fetch' }],
      tools: [webFetch],
      temperature: 0,
      maxOutputTokens: 256,
    });
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toEqual([
      { id: 'call_a', name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } },
    ]);
    const [body] = completionBodies(fake);
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'web_fetch', description: 'Fetch a URL.', parameters: webFetch.parameters },
      },
    ]);
    expect(body.temperature).toBe(0);
    expect(body.max_tokens).toBe(256);
  });

  it('returns two tool calls', async () => {
    const fake = await start([
      {
        toolCalls: [
          { id: 'call_a', name: 'web_fetch', arguments: { url: 'https://a' } },
          { id: 'call_b', name: 'web_fetch', arguments: { url: 'https://b' } },
        ],
      },
    ]);
    const result = await model(fake).doGenerate({
      messages: [{ role: 'user', content: 'both' }],
      tools: [webFetch],
    });
    expect(result.toolCalls.map((call) => [call.id, call.arguments.url])).toEqual([
      ['call_a', 'https://a'],
      ['call_b', 'https://b'],
    ]);
  });

  it('turns malformed arguments into a call that carries the parse error', async () => {
    const fake = await start([
      { toolCalls: [{ id: 'call_bad', name: 'web_fetch', arguments: '{"url": "https://a"' }] },
    ]);
    const result = await model(fake).doGenerate({
      messages: [{ role: 'user', content: 'x' }],
      tools: [webFetch],
    });
    const [call] = result.toolCalls;
    expect(call?.name).toBe('web_fetch');
    expect(Object.keys(call?.arguments ?? {})).toEqual([INVALID_TOOL_ARGUMENTS]);
    const invalid = invalidToolArguments(call!);
    expect(invalid?.raw).toBe('{"url": "https://a"');
    expect(invalid?.error).toMatch(/not valid JSON/);
  });

  it('sends the history back in OpenAI format: JSON-string arguments, results by tool_call_id', async () => {
    const fake = await start(['done']);
    await model(fake).doGenerate({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'call_a', name: 'web_fetch', arguments: { url: 'https://a' } },
            {
              id: 'call_b',
              name: 'web_fetch',
              arguments: { [INVALID_TOOL_ARGUMENTS]: { error: 'not valid JSON', raw: '{"url":' } },
            },
          ],
        },
        { role: 'tool', toolCallId: 'call_a', toolName: 'web_fetch', content: 'page body' },
        {
          role: 'tool',
          toolCallId: 'call_b',
          toolName: 'web_fetch',
          content: 'invalid arguments',
          isError: true,
        },
        { role: 'assistant', content: 'Fetched.' },
        { role: 'user', content: 'thanks' },
      ],
    });
    expect(completionBodies(fake)[0].messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'web_fetch', arguments: '{"url":"https://a"}' },
          },
          { id: 'call_b', type: 'function', function: { name: 'web_fetch', arguments: '{"url":' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'page body' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: invalid arguments' },
      { role: 'assistant', content: 'Fetched.' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('sends the API key as a bearer token', async () => {
    const fake = await start(['ok'], 'sk-test-123');
    const result = await model(fake, { apiKey: 'sk-test-123' }).doGenerate({
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(result.text).toBe('ok');
    const error = await model(fake, { apiKey: 'sk-wrong' })
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_ERROR')).toBe(true);
    expect(error.details.status).toBe(401);
    expect(error.hint).toContain('OPENAI_API_KEY');
  });

  it('turns an HTTP error into PROVIDER_ERROR with the status and the provider message', async () => {
    const fake = await start([{ error: { status: 429, message: 'Rate limit reached for requests' } }]);
    const error = await model(fake)
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_ERROR')).toBe(true);
    expect(error.message).toContain('HTTP 429');
    expect(error.message).toContain('Rate limit reached for requests');
    expect(error.details).toMatchObject({
      status: 429,
      body: { message: 'Rate limit reached for requests', type: 'requests' },
    });
  });

  it('turns a closed port into PROVIDER_UNREACHABLE naming the host', async () => {
    const url = `${await closedPortURL()}/v1`;
    const unreachable = createOpenAICompatible({ baseURL: url, model: 'm', maxRetries: 0, env: {} });
    const error = await unreachable
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_UNREACHABLE')).toBe(true);
    expect(error.message).toContain(url);
    expect(error.hint).toContain('OPENAI_BASE_URL');
    expect(error.hint).toContain('base_url');
  });

  it('turns a timeout into PROVIDER_UNREACHABLE', async () => {
    const fake = await start([{ text: 'late', delayMs: 5_000 }]);
    const slow = createOpenAICompatible({
      baseURL: fake.baseURL,
      model: 'm',
      maxRetries: 0,
      timeoutMs: 50,
      env: {},
    });
    const error = await slow
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_UNREACHABLE')).toBe(true);
    expect(error.message).toContain('no answer in time');
    expect(error.message).toContain('stopped after 50 ms (timeout_ms = 50)');
    expect(error.hint).toContain('raise timeout_ms under [runtime.llm.<tier>]');
  });

  it('requires an API key for a remote host, and none for a local one', () => {
    const remote = () =>
      createOpenAICompatible({ baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', env: {} });
    const error = thrown(remote);
    expect(ScratchpadError.hasCode(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toContain('api.openai.com');
    expect(error.hint).toContain('OPENAI_API_KEY');
    expect(() =>
      createOpenAICompatible({
        baseURL: 'https://api.openai.com/v1',
        model: 'm',
        env: { OPENAI_API_KEY: 'sk-x' },
      }),
    ).not.toThrow();
    expect(() =>
      createOpenAICompatible({ baseURL: 'http://192.168.1.20:8000/v1', model: 'm', env: {} }),
    ).not.toThrow();
  });

  it('reads the base URL from OPENAI_BASE_URL', async () => {
    const fake = await start(['from env']);
    const fromEnv = createOpenAICompatible({
      model: 'm',
      maxRetries: 0,
      env: { OPENAI_BASE_URL: fake.baseURL },
    });
    expect((await fromEnv.doGenerate({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('from env');
  });

  it('parses the recorded-shape fixture', async () => {
    const fixture = JSON.parse(
      readFileSync(
        new URL(
          '../../../../src/testing/fake-servers/fixtures/openai-chat-completion-tool-calls.json',
          import.meta.url,
        ),
        'utf8',
      ),
    );
    const fake = await start([{ body: fixture }]);
    const result = await model(fake).doGenerate({ messages: [{ role: 'user', content: 'fetch and read' }] });
    expect(result).toEqual({
      text: '',
      toolCalls: [
        {
          id: 'call_Qm3vT8xJpL2dK9wR4sN7bY1c',
          name: 'web_fetch',
          arguments: { url: 'https://httpbin.org/uuid' },
        },
        {
          id: 'call_Hf6nB2zW8qE5tY0uI3oP9aSd',
          name: 'fs_read',
          arguments: { path: '/tmp/note.txt', tail_bytes: 100 },
        },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 187, outputTokens: 58 },
      raw: fixture,
    });
  });
});
