import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from './fake-anthropic.js';
import type { FakeServer } from './fake-http-server.js';
import { startFakeOllama } from './fake-ollama.js';
import { startFakeOpenAI } from './fake-openai.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('startFakeOllama', () => {
  it('lists models and the version, and answers 404 for a model it does not have', async () => {
    server = await startFakeOllama([], { models: ['qwen3:8b'], version: '0.12.6' });
    expect(await (await fetch(`${server.url}/api/version`)).json()).toEqual({ version: '0.12.6' });
    const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as {
      models: Array<{ name: string }>;
    };
    expect(tags.models.map((model) => model.name)).toEqual(['qwen3:8b']);
    const missing = await post(`${server.url}/api/chat`, {
      model: 'gemma3:12b',
      messages: [],
      stream: false,
    });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toEqual({ error: 'model "gemma3:12b" not found, try pulling it first' });
    expect(server.remaining).toBe(0);
  });

  it('streams NDJSON when stream is not false, as Ollama defaults', async () => {
    server = await startFakeOllama([
      { text: 'hello', toolCalls: [{ name: 'fs_read', arguments: { path: '/a' } }] },
    ]);
    const streamed = await post(`${server.url}/api/chat`, { model: 'qwen3:8b', messages: [] });
    expect(streamed.type).toBe('application/x-ndjson');
    const chunks = streamed.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(chunks.map((chunk) => chunk.done)).toEqual([false, false, true]);
    expect(chunks[0].message.content).toBe('hello');
    expect(chunks[1].message.tool_calls[0].function).toEqual({
      index: 0,
      name: 'fs_read',
      arguments: { path: '/a' },
    });
    expect(chunks[2]).toMatchObject({ done_reason: 'stop', prompt_eval_count: expect.any(Number) });
  });

  it('answers 500 in the provider shape when the script is used up, and records every request', async () => {
    server = await startFakeOllama(['only one']);
    expect((await post(`${server.url}/api/chat`, { model: 'm', messages: [], stream: false })).status).toBe(
      200,
    );
    const exhausted = await post(`${server.url}/api/chat`, { model: 'm', messages: [], stream: false });
    expect(exhausted.status).toBe(500);
    expect(JSON.parse(exhausted.text).error).toContain('no reply left for chat request 2');
    expect((await post(`${server.url}/api/chat`, { messages: [] })).status).toBe(400);
    expect(server.requests.map((request) => [request.method, request.path])).toEqual([
      ['POST', '/api/chat'],
      ['POST', '/api/chat'],
      ['POST', '/api/chat'],
    ]);
    server.enqueue('more');
    expect(server.remaining).toBe(1);
  });

  it('passes the request to a function step', async () => {
    server = await startFakeOllama([(request) => `you sent ${request.body.messages.length} messages`]);
    const answer = await post(`${server.url}/api/chat`, {
      model: 'm',
      messages: [{ role: 'user', content: 'a' }],
      stream: false,
    });
    expect(JSON.parse(answer.text).message.content).toBe('you sent 1 messages');
  });
});

describe('startFakeOpenAI', () => {
  it('lists models under /v1 and rejects a request without messages the way OpenAI does', async () => {
    server = await startFakeOpenAI([], { models: ['gpt-4.1-mini'] });
    expect(server.baseURL).toBe(`${server.url}/v1`);
    const models = (await (await fetch(`${server.baseURL}/models`)).json()) as {
      data: Array<{ id: string }>;
    };
    expect(models.data.map((model) => model.id)).toEqual(['gpt-4.1-mini']);
    const invalid = await post(`${server.baseURL}/chat/completions`, { model: 'gpt-4.1-mini' });
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.text).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'missing_required_parameter',
    });
  });

  it('answers a scripted HTTP error and 404 for unknown paths', async () => {
    server = await startFakeOpenAI([{ error: { status: 503, message: 'upstream down' } }]);
    const failed = await post(`${server.baseURL}/chat/completions`, { model: 'm', messages: [] });
    expect(failed.status).toBe(503);
    expect(JSON.parse(failed.text)).toEqual({
      error: { message: 'upstream down', type: 'server_error', param: null, code: null },
    });
    expect((await post(`${server.url}/v2/whatever`, {})).status).toBe(404);
  });
});

describe('startFakeAnthropic', () => {
  it('requires max_tokens like the Messages API and checks the API key when told to', async () => {
    server = await startFakeAnthropic(['hi'], { apiKey: 'sk-ant' });
    const unauthorized = await post(`${server.url}/v1/messages`, {
      model: 'm',
      max_tokens: 10,
      messages: [],
    });
    expect(unauthorized.status).toBe(401);
    expect(JSON.parse(unauthorized.text)).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    });
    const missing = await post(
      `${server.url}/v1/messages`,
      { model: 'm', messages: [] },
      { 'x-api-key': 'sk-ant' },
    );
    expect(JSON.parse(missing.text).error).toEqual({
      type: 'invalid_request_error',
      message: 'max_tokens: Field required',
    });
    const answer = await post(
      `${server.url}/v1/messages`,
      { model: 'm', max_tokens: 10, messages: [] },
      { 'x-api-key': 'sk-ant' },
    );
    expect(JSON.parse(answer.text)).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'hi' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
  });

  it('closes cleanly with a reply still pending', async () => {
    const pendingServer = await startFakeAnthropic([{ text: 'late', delayMs: 10_000 }]);
    const pending = post(`${pendingServer.url}/v1/messages`, {
      model: 'm',
      max_tokens: 10,
      messages: [],
    }).catch((error: unknown) => error);
    while (pendingServer.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await pendingServer.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
