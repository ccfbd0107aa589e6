import { afterEach, describe, expect, it } from 'vitest';
import { createOffloadPolicy } from 'llm-scratchpad';
import { createOffloader } from 'llm-scratchpad';
import { createScratchpad } from 'llm-scratchpad';
import { createMemoryDriver } from 'llm-scratchpad/memory';
import { startFakeAnthropic } from 'llm-scratchpad/test';
import type { FakeServer } from 'llm-scratchpad/test';
import { startFakeOllama } from 'llm-scratchpad/test';
import { startFakeOpenAI } from 'llm-scratchpad/test';
import type { FakeScriptStep } from 'llm-scratchpad/test';
import type { LanguageModel } from '../model/language-model.js';
import { createAnthropic } from '../providers/anthropic-model.js';
import { createOllama } from '../providers/ollama-model.js';
import { createOpenAICompatible } from '../providers/openai-compatible-model.js';
import { createModelSummarizer } from './model-summarizer.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PROVIDERS: Array<{
  name: string;
  start: (script: FakeScriptStep[]) => Promise<FakeServer>;
  model: (fake: FakeServer) => LanguageModel;
  /** The user text the provider's wire request carries. */
  userText: (body: Record<string, unknown>) => string;
}> = [
  {
    name: 'OpenAI-compatible',
    start: (script) => startFakeOpenAI(script),
    model: (fake) =>
      createOpenAICompatible({
        baseURL: fake.baseURL,
        model: 'fast-model',
        apiKey: 'k',
        maxRetries: 0,
        env: {},
      }),
    userText: (body) => JSON.stringify(body.messages),
  },
  {
    name: 'Anthropic',
    start: (script) => startFakeAnthropic(script),
    model: (fake) =>
      createAnthropic({ baseURL: fake.baseURL, model: 'claude-haiku', apiKey: 'k', maxRetries: 0, env: {} }),
    userText: (body) => JSON.stringify(body.messages),
  },
  {
    name: 'Ollama',
    start: (script) => startFakeOllama(script),
    model: (fake) => createOllama({ baseURL: fake.baseURL, model: 'qwen3:4b', env: {} }),
    userText: (body) => JSON.stringify(body.messages),
  },
];

function bigOutput(): string {
  const lines = Array.from(
    { length: 1500 },
    (_, index) => `row ${index}: status=200 path=/api/items/${index}`,
  );
  lines[1234] = 'row 1234: status=503 path=/api/items/1234 upstream timeout';
  return `${lines.join('\n')}\n`;
}

function summarizingOffloader(model: LanguageModel, timeoutMs = 10_000) {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  return createOffloader({
    session,
    policy: createOffloadPolicy({ summarize: { summarizer: createModelSummarizer(model), timeoutMs } }),
  });
}

describe.each(PROVIDERS)('createModelSummarizer over $name (fake server, real wire protocol)', (provider) => {
  it('asks the model once per output and shows its summary in the observation', async () => {
    const fake = await provider.start([
      '1,500 request rows; one failed: row 1234, status 503 (upstream timeout).',
    ]);
    server = fake;
    const offloader = summarizingOffloader(provider.model(fake));
    const output = bigOutput();
    const outcome = await offloader.process({
      tool: 'http_log',
      result: output,
      context: { task: 'find failures' },
    });
    expect(outcome.offloaded && outcome.summary).toEqual({ source: 'model' });
    expect(outcome.text).toContain('row 1234, status 503 (upstream timeout)');
    const requests = fake.requests.filter((request) => request.method === 'POST');
    expect(requests).toHaveLength(1);
    const sent = provider.userText(requests[0]?.body);
    expect(sent).toContain('row 1234: status=503 path=/api/items/1234 upstream timeout');
    expect(sent).toContain("The agent's task: find failures");
    // The same output again is served from the cache: no second request.
    await offloader.process({ tool: 'http_log', result: output, context: { task: 'find failures' } });
    expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('falls back to the salient preview on an HTTP error and on a reply slower than the time budget', async () => {
    const fake = await provider.start([
      { error: { status: 500, message: 'overloaded' } },
      { text: 'too late', delayMs: 2000 },
    ]);
    server = fake;
    const failed = await summarizingOffloader(provider.model(fake)).process({
      tool: 'log',
      result: bigOutput(),
    });
    expect(failed.offloaded && failed.summary).toEqual({ source: 'fallback', reason: 'error' });
    expect(failed.text).toContain('Stands out');
    const slow = await summarizingOffloader(provider.model(fake), 200).process({
      tool: 'log',
      result: bigOutput(),
    });
    expect(slow.offloaded && slow.summary).toEqual({ source: 'fallback', reason: 'timeout' });
    expect(slow.text).not.toContain('too late');
  });
});
