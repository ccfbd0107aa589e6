import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { closedPortURL } from 'llm-scratchpad/test';
import type { FakeServer } from 'llm-scratchpad/test';
import { startFakeOllama } from 'llm-scratchpad/test';
import type { FakeScriptStep } from 'llm-scratchpad/test';
import type { ModelMessage, ModelToolDefinition } from '../model/language-model.js';
import { createOllama, normalizeOllamaHost } from './ollama-model.js';

const fsRead: ModelToolDefinition = {
  name: 'fs_read',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: FakeScriptStep[], models?: string[]) {
  server = await startFakeOllama(script, models ? { models } : {});
  return server;
}

function chatBodies(fake: FakeServer) {
  return fake.requests.filter((request) => request.path === '/api/chat').map((request) => request.body);
}

describe('createOllama', () => {
  it('answers plain text and sends the system prompt as the first message', async () => {
    const fake = await start([
      { text: 'The last three lines are …', usage: { inputTokens: 40, outputTokens: 7 } },
    ]);
    const model = createOllama({ baseURL: fake.baseURL, model: 'qwen3:8b' });
    const result = await model.doGenerate({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(model).toMatchObject({ specificationVersion: 'v1', provider: 'ollama', modelId: 'qwen3:8b' });
    expect(result).toMatchObject({
      text: 'The last three lines are …',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 40, outputTokens: 7 },
    });
    expect((result.raw as { done: boolean }).done).toBe(true);
    const [body] = chatBodies(fake);
    expect(body).toMatchObject({
      model: 'qwen3:8b',
      stream: false,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(body.tools).toBeUndefined();
    expect(body.think).toBeUndefined();
  });

  it('returns one tool call with a generated stable id and sends the tools in Ollama format', async () => {
    const fake = await start([{ toolCalls: [{ name: 'fs_read', arguments: { path: '/tmp/a.txt' } }] }]);
    const model = createOllama({ baseURL: fake.baseURL, model: 'qwen3:8b' });
    const result = await model.doGenerate({
      messages: [{ role: 'user', content: 'read it' }],
      tools: [fsRead],
    });
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toEqual([
      { id: 'call_1_0', name: 'fs_read', arguments: { path: '/tmp/a.txt' } },
    ]);
    expect(chatBodies(fake)[0].tools).toEqual([
      {
        type: 'function',
        function: { name: 'fs_read', description: 'Read a file.', parameters: fsRead.parameters },
      },
    ]);
  });

  it('returns two tool calls, keeping ids the server sends', async () => {
    const fake = await start([
      {
        toolCalls: [
          { name: 'fs_read', arguments: { path: '/a' } },
          { id: 'call_server_1', name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } },
        ],
      },
    ]);
    const model = createOllama({ baseURL: fake.baseURL, model: 'qwen3:8b' });
    const history: ModelMessage[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'now both' },
    ];
    const result = await model.doGenerate({ messages: history, tools: [fsRead] });
    expect(result.toolCalls).toEqual([
      { id: 'call_2_0', name: 'fs_read', arguments: { path: '/a' } },
      { id: 'call_server_1', name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } },
    ]);
  });

  it('sends the history back in Ollama format: tool calls as objects, results by tool_name, errors marked', async () => {
    const fake = await start(['The UUID is 7c08.']);
    const model = createOllama({ baseURL: fake.baseURL, model: 'qwen3:8b' });
    await model.doGenerate({
      messages: [
        { role: 'user', content: 'fetch and read' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'call_1_0', name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } },
            { id: 'call_1_1', name: 'fs_read', arguments: { path: '/missing' } },
          ],
        },
        { role: 'tool', toolCallId: 'call_1_0', toolName: 'web_fetch', content: '{"uuid":"7c08"}' },
        { role: 'tool', toolCallId: 'call_1_1', toolName: 'fs_read', content: 'no such file', isError: true },
      ],
    });
    expect(chatBodies(fake)[0].messages).toEqual([
      { role: 'user', content: 'fetch and read' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { function: { name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } } },
          { function: { name: 'fs_read', arguments: { path: '/missing' } } },
        ],
      },
      { role: 'tool', content: '{"uuid":"7c08"}', tool_name: 'web_fetch' },
      { role: 'tool', content: 'Error: no such file', tool_name: 'fs_read' },
    ]);
  });

  it('sends think from the config, lets a call override it, and passes temperature and output cap as options', async () => {
    const fake = await start([{ text: '42', thinking: 'Six times seven.' }, '42']);
    const model = createOllama({ baseURL: fake.baseURL, model: 'qwen3:8b', think: true });
    const thinking = await model.doGenerate({ messages: [{ role: 'user', content: '6*7?' }] });
    expect((thinking.raw as { message: { thinking?: string } }).message.thinking).toBe('Six times seven.');
    await model.doGenerate({
      messages: [{ role: 'user', content: '6*7?' }],
      think: false,
      temperature: 0.2,
      maxOutputTokens: 64,
    });
    const [first, second] = chatBodies(fake);
    expect(first.think).toBe(true);
    expect(first.options).toBeUndefined();
    expect(second.think).toBe(false);
    expect(second.options).toEqual({ temperature: 0.2, num_predict: 64 });
  });

  it('maps done_reason length to finishReason length', async () => {
    const fake = await start([{ text: 'cut', finishReason: 'length' }]);
    const result = await createOllama({ baseURL: fake.baseURL, model: 'm' }).doGenerate({
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(result.finishReason).toBe('length');
  });

  it('turns an HTTP error into PROVIDER_ERROR with the status and the server message', async () => {
    const fake = await start([{ error: { status: 500, message: 'llama runner process has terminated' } }]);
    const model = createOllama({ baseURL: fake.baseURL, model: 'qwen3:8b' });
    const error = await model
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_ERROR')).toBe(true);
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain('llama runner process has terminated');
    expect(error.details.status).toBe(500);
  });

  it('says to pull a model the server does not have', async () => {
    const fake = await start([], ['qwen3:8b']);
    const model = createOllama({ baseURL: fake.baseURL, model: 'gemma3:12b' });
    const error = await model
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_ERROR')).toBe(true);
    expect(error.message).toContain('not found');
    expect(error.hint).toContain('ollama pull gemma3:12b');
  });

  it('turns a closed port into PROVIDER_UNREACHABLE naming the host and how to configure another', async () => {
    const url = await closedPortURL();
    const env = { XDG_CONFIG_HOME: '/home/ada/.config' };
    const model = createOllama({ baseURL: url, model: 'qwen3:8b', env });
    const error = await model
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_UNREACHABLE')).toBe(true);
    expect(error.message).toContain(url);
    expect(error.message).toContain('connection refused');
    expect(error.hint).toContain('OLLAMA_HOST');
    expect(error.hint).toContain('base_url');
    expect(error.hint).toContain('/home/ada/.config/scratchpad/config.toml');
    expect(error.category).toBe('third-party');
  });

  it('reads the host from OLLAMA_HOST when no baseURL is given', async () => {
    const fake = await start(['from env']);
    const host = fake.url.replace('http://', '');
    const result = await createOllama({ model: 'm', env: { OLLAMA_HOST: host } }).doGenerate({
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(result.text).toBe('from env');
  });

  it('turns a timeout into PROVIDER_UNREACHABLE', async () => {
    const fake = await start([{ text: 'late', delayMs: 5_000 }]);
    const model = createOllama({ baseURL: fake.baseURL, model: 'm', timeoutMs: 50 });
    const error = await model
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'PROVIDER_UNREACHABLE')).toBe(true);
    expect(error.message).toContain('no answer in time');
    expect(error.message).toContain('stopped after 50 ms (timeout_ms = 50)');
    expect(error.hint).toContain('raise timeout_ms under [runtime.llm.<tier>]');
  });

  it('rejects with the abort reason when the caller aborts', async () => {
    const fake = await start([{ text: 'late', delayMs: 5_000 }]);
    const controller = new AbortController();
    const pending = createOllama({ baseURL: fake.baseURL, model: 'm' }).doGenerate({
      messages: [{ role: 'user', content: 'x' }],
      signal: controller.signal,
    });
    controller.abort(new Error('user pressed ctrl-c'));
    await expect(pending).rejects.toThrow('user pressed ctrl-c');
  });

  it('parses the recorded-shape fixture', async () => {
    const fixture = JSON.parse(
      readFileSync(
        new URL('../../../../src/testing/fake-servers/fixtures/ollama-chat-tool-call.json', import.meta.url),
        'utf8',
      ),
    );
    const fake = await start([{ body: fixture }]);
    const result = await createOllama({ baseURL: fake.baseURL, model: 'qwen3:8b' }).doGenerate({
      messages: [{ role: 'user', content: 'last three lines of ~/notes/diary.md' }],
    });
    expect(result).toEqual({
      text: '',
      toolCalls: [
        { id: 'call_1_0', name: 'fs_read', arguments: { path: '~/notes/diary.md', tail_lines: 3 } },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 412, outputTokens: 87 },
      raw: fixture,
    });
  });
});

describe('normalizeOllamaHost', () => {
  it('accepts the forms OLLAMA_HOST takes', () => {
    expect(normalizeOllamaHost('127.0.0.1')).toBe('http://127.0.0.1:11434');
    expect(normalizeOllamaHost('0.0.0.0:8080')).toBe('http://0.0.0.0:8080');
    expect(normalizeOllamaHost(':9999')).toBe('http://127.0.0.1:9999');
    expect(normalizeOllamaHost('https://ollama.example.com/')).toBe('https://ollama.example.com');
  });
});
