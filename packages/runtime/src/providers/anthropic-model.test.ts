import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { closedPortURL } from 'llm-scratchpad/test';
import { startFakeAnthropic } from 'llm-scratchpad/test';
import type { FakeServer } from 'llm-scratchpad/test';
import type { FakeScriptStep } from 'llm-scratchpad/test';
import type { ModelToolDefinition } from '../model/language-model.js';
import { createAnthropic } from './anthropic-model.js';

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
  server = await startFakeAnthropic(script, apiKey ? { apiKey } : {});
  return server;
}

function model(fake: FakeServer, extra: { apiKey?: string; maxOutputTokens?: number } = {}) {
  return createAnthropic({
    baseURL: fake.baseURL,
    model: 'claude-sonnet-4-6',
    maxRetries: 0,
    env: {},
    ...extra,
  });
}

function messageBodies(fake: FakeServer) {
  return fake.requests.filter((request) => request.path === '/v1/messages').map((request) => request.body);
}

describe('createAnthropic', () => {
  it('answers plain text, with the system prompt in its own field and a default max_tokens', async () => {
    const fake = await start([{ text: 'Hello.', usage: { inputTokens: 20, outputTokens: 3 } }]);
    const result = await model(fake).doGenerate({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(result).toMatchObject({
      text: 'Hello.',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 20, outputTokens: 3 },
    });
    expect((result.raw as { stop_reason: string }).stop_reason).toBe('end_turn');
    expect(messageBodies(fake)[0]).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 4096,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
  });

  it('returns one tool call from a tool_use block and sends tools with input_schema', async () => {
    const fake = await start([
      {
        text: 'Fetching.',
        toolCalls: [{ id: 'toolu_1', name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } }],
      },
    ]);
    const result = await model(fake, { maxOutputTokens: 1024 }).doGenerate({
      messages: [{ role: 'user', content: 'fetch' }],
      tools: [webFetch],
    });
    expect(result).toMatchObject({
      text: 'Fetching.',
      finishReason: 'tool-calls',
      toolCalls: [{ id: 'toolu_1', name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } }],
    });
    const [body] = messageBodies(fake);
    expect(body.tools).toEqual([
      { name: 'web_fetch', description: 'Fetch a URL.', input_schema: webFetch.parameters },
    ]);
    expect(body.max_tokens).toBe(1024);
  });

  it('returns two tool calls', async () => {
    const fake = await start([
      {
        toolCalls: [
          { name: 'web_fetch', arguments: { url: 'https://a' } },
          { name: 'web_fetch', arguments: { url: 'https://b' } },
        ],
      },
    ]);
    const result = await model(fake).doGenerate({
      messages: [{ role: 'user', content: 'both' }],
      tools: [webFetch],
    });
    expect(result.toolCalls.map((call) => call.arguments.url)).toEqual(['https://a', 'https://b']);
    expect(new Set(result.toolCalls.map((call) => call.id)).size).toBe(2);
  });

  it('sends the history back as tool_use and tool_result blocks, consecutive results in one user message', async () => {
    const fake = await start(['done']);
    await model(fake).doGenerate({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: 'Two fetches.',
          toolCalls: [
            { id: 'toolu_a', name: 'web_fetch', arguments: { url: 'https://a' } },
            { id: 'toolu_b', name: 'web_fetch', arguments: { url: 'https://b' } },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_a', toolName: 'web_fetch', content: 'page a' },
        { role: 'tool', toolCallId: 'toolu_b', toolName: 'web_fetch', content: 'HTTP 404', isError: true },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'toolu_c', name: 'web_fetch', arguments: { url: 'https://c' } }],
        },
        { role: 'tool', toolCallId: 'toolu_c', toolName: 'web_fetch', content: 'page c' },
        { role: 'user', content: 'and summarize' },
      ],
    });
    expect(messageBodies(fake)[0].messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Two fetches.' },
          { type: 'tool_use', id: 'toolu_a', name: 'web_fetch', input: { url: 'https://a' } },
          { type: 'tool_use', id: 'toolu_b', name: 'web_fetch', input: { url: 'https://b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'page a' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'HTTP 404', is_error: true },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_c', name: 'web_fetch', input: { url: 'https://c' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_c', content: 'page c' },
          { type: 'text', text: 'and summarize' },
        ],
      },
    ]);
  });

  it('maps max_tokens to finishReason length', async () => {
    const fake = await start([{ text: 'cut', finishReason: 'length' }]);
    expect((await model(fake).doGenerate({ messages: [{ role: 'user', content: 'x' }] })).finishReason).toBe(
      'length',
    );
  });

  it('sends the API key and turns a rejected one into PROVIDER_ERROR 401', async () => {
    const fake = await start(['ok'], 'sk-ant-test');
    expect(
      (
        await model(fake, { apiKey: 'sk-ant-test' }).doGenerate({
          messages: [{ role: 'user', content: 'x' }],
        })
      ).text,
    ).toBe('ok');
    const error = await model(fake, { apiKey: 'sk-ant-wrong' })
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_ERROR')).toBe(true);
    expect(error.details.status).toBe(401);
    expect(error.message).toContain('invalid x-api-key');
    expect(error.hint).toContain('ANTHROPIC_API_KEY');
  });

  it('turns an HTTP error into PROVIDER_ERROR with the status and the provider message', async () => {
    const fake = await start([{ error: { status: 529, message: 'Overloaded' } }]);
    const error = await model(fake)
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_ERROR')).toBe(true);
    expect(error.message).toContain('HTTP 529');
    expect(error.message).toContain('Overloaded');
    expect(error.details.body).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });

  it('turns a closed port into PROVIDER_UNREACHABLE naming the host', async () => {
    const url = await closedPortURL();
    const unreachable = createAnthropic({ baseURL: url, model: 'claude-sonnet-4-6', maxRetries: 0, env: {} });
    const error = await unreachable
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_UNREACHABLE')).toBe(true);
    expect(error.message).toContain(url);
    expect(error.hint).toContain('ANTHROPIC_BASE_URL');
  });

  it('stops a request after timeout_ms, retries included, with PROVIDER_UNREACHABLE saying how to raise it', async () => {
    const fake = await start([
      { text: 'late', delayMs: 5_000 },
      { text: 'late', delayMs: 5_000 },
      { text: 'late', delayMs: 5_000 },
    ]);
    const slow = createAnthropic({
      baseURL: fake.baseURL,
      model: 'claude-sonnet-4-6',
      maxRetries: 2,
      timeoutMs: 200,
      env: {},
    });
    const error = await slow
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_UNREACHABLE')).toBe(true);
    expect(error.message).toBe(
      `Anthropic at ${fake.baseURL} gave no answer in time for model claude-sonnet-4-6: the request was stopped after 200 ms (timeout_ms = 200).`,
    );
    expect(error.hint).toContain('raise timeout_ms under [runtime.llm.<tier>]');
  });

  it('requires an API key for the remote API', () => {
    let error: unknown;
    try {
      createAnthropic({ model: 'claude-sonnet-4-6', env: {} });
    } catch (caught) {
      error = caught;
    }
    expect(ScratchpadError.hasCode(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as ScratchpadError).message).toContain('https://api.anthropic.com');
    expect((error as ScratchpadError).hint).toContain('ANTHROPIC_API_KEY');
    expect(() => createAnthropic({ model: 'm', env: { ANTHROPIC_API_KEY: 'sk-ant-x' } })).not.toThrow();
  });

  it('parses the recorded-shape fixture, counting cached prompt tokens as input', async () => {
    const fixture = JSON.parse(
      readFileSync(
        new URL('../../../../src/testing/fake-servers/fixtures/anthropic-message-tool-use.json', import.meta.url),
        'utf8',
      ),
    );
    const fake = await start([{ body: fixture }]);
    const result = await model(fake).doGenerate({ messages: [{ role: 'user', content: 'uuid please' }] });
    expect(result).toEqual({
      text: "I'll fetch the page first, then pull the UUID out of the JSON it returns.",
      toolCalls: [
        {
          id: 'toolu_01A09q90qw90lq917835lq9',
          name: 'web_fetch',
          arguments: { url: 'https://httpbin.org/uuid' },
        },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 1536, outputTokens: 71 },
      raw: fixture,
    });
  });
});
