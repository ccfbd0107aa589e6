import { afterEach, describe, expect, it } from 'vitest';
import type { FakeServer } from 'llm-scratchpad/test';
import { startFakeAnthropic, startFakeOllama, startFakeOpenAI } from 'llm-scratchpad/test';
import type { LanguageModel, ResponseFormat } from '../model/language-model.js';
import { createAnthropic } from './anthropic-model.js';
import { createOllama } from './ollama-model.js';
import { createOpenAICompatible } from './openai-compatible-model.js';

const responseFormat: ResponseFormat = {
  name: 'verdict',
  schema: {
    type: 'object',
    properties: { score: { type: 'number' } },
    required: ['score'],
    additionalProperties: false,
  },
};

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('structured output (responseFormat) in each provider’s own field', () => {
  it.each([
    {
      provider: 'ollama',
      start: startFakeOllama,
      create: (fake: FakeServer) => createOllama({ baseURL: fake.baseURL, model: 'm' }),
      sent: { format: responseFormat.schema },
    },
    {
      provider: 'openai',
      start: startFakeOpenAI,
      create: (fake: FakeServer) =>
        createOpenAICompatible({ baseURL: fake.baseURL, model: 'm', maxRetries: 0, env: {} }),
      sent: { response_format: { type: 'json_schema', json_schema: { ...responseFormat, strict: true } } },
    },
    {
      provider: 'anthropic',
      start: startFakeAnthropic,
      create: (fake: FakeServer) =>
        createAnthropic({ baseURL: fake.baseURL, model: 'claude-sonnet-4-6', maxRetries: 0, env: {} }),
      sent: { output_config: { format: { type: 'json_schema', schema: responseFormat.schema } } },
    },
  ] satisfies Array<{
    provider: string;
    start: (script: string[]) => Promise<FakeServer>;
    create: (fake: FakeServer) => LanguageModel;
    sent: Record<string, unknown>;
  }>)('$provider', async ({ start, create, sent }) => {
    server = await start(['{"score":0.9}']);
    const result = await create(server).doGenerate({
      messages: [{ role: 'user', content: 'x' }],
      responseFormat,
    });
    expect(result.text).toBe('{"score":0.9}');
    const [request] = server.requests.filter((item) => item.method === 'POST');
    expect(request?.body).toMatchObject(sent);
  });
});
