import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configFilePath } from 'llm-scratchpad/extension';
import { ScratchpadError } from 'llm-scratchpad';
import { startFakeAnthropic } from 'llm-scratchpad/test';
import type { FakeServer } from 'llm-scratchpad/test';
import { startFakeOllama } from 'llm-scratchpad/test';
import { startFakeOpenAI } from 'llm-scratchpad/test';
import { loadRuntimeConfig } from './load-runtime-config.js';
import { resolveModel } from './resolve-model.js';
import { defaultRuntimeConfig } from './runtime-config.js';

let home: string;
const servers: FakeServer[] = [];
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'scratchpad-resolve-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(home, { recursive: true, force: true });
});

async function configWith(text: string) {
  const env = { XDG_CONFIG_HOME: home };
  await mkdir(join(home, 'scratchpad'), { recursive: true });
  await writeFile(configFilePath(env), text);
  return loadRuntimeConfig({ env });
}

async function track(server: Promise<FakeServer>): Promise<FakeServer> {
  const started = await server;
  servers.push(started);
  return started;
}

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('resolveModel', () => {
  it('builds each tier from its section and sends its settings', async () => {
    const ollama = await track(startFakeOllama(['fast answer', 'middle answer']));
    const openai = await track(startFakeOpenAI(['wise answer'], { apiKey: 'sk-wise' }));
    const config = await configWith(`
[runtime.llm.fast]
provider = "ollama"
model = "qwen3:8b"
think = false
base_url = "${ollama.url}"

[runtime.llm.middle]
model = "gemma3:12b"
base_url = "${ollama.url}"
temperature = 0.3

[runtime.llm.wise]
provider = "openai"
model = "gpt-4.1"
base_url = "${openai.baseURL}"
api_key_env = "WISE_KEY"
max_retries = 0
`);
    const env = { WISE_KEY: 'sk-wise' };
    const fast = resolveModel(config, 'fast', {}, { env });
    const middle = resolveModel(config, 'middle', {}, { env });
    const wise = resolveModel(config, 'wise', {}, { env });
    expect([fast.provider, fast.modelId, middle.modelId, wise.provider, wise.modelId]).toEqual([
      'ollama',
      'qwen3:8b',
      'gemma3:12b',
      'openai',
      'gpt-4.1',
    ]);
    expect((await fast.doGenerate(ask)).text).toBe('fast answer');
    expect((await middle.doGenerate(ask)).text).toBe('middle answer');
    expect((await wise.doGenerate(ask)).text).toBe('wise answer');
    const [fastBody, middleBody] = ollama.requests.map((request) => request.body);
    expect(fastBody).toMatchObject({ model: 'qwen3:8b', think: false });
    expect(middleBody).toMatchObject({ model: 'gemma3:12b', options: { temperature: 0.3 } });
    expect(middleBody.think).toBeUndefined();
  });

  it('aliases a missing tier down to the one configured', async () => {
    const ollama = await track(startFakeOllama(['from fast']));
    const config = await configWith(`[runtime.llm.fast]\nmodel = "qwen3:4b"\nbase_url = "${ollama.url}"\n`);
    const wise = resolveModel(config, 'wise', {}, { env: {} });
    expect(wise.modelId).toBe('qwen3:4b');
    expect((await wise.doGenerate(ask)).text).toBe('from fast');
  });

  it('defaults to Ollama at OLLAMA_HOST with qwen3:8b and think off when there is no config', async () => {
    const ollama = await track(startFakeOllama(['default']));
    const model = resolveModel(defaultRuntimeConfig(), 'fast', {}, { env: { OLLAMA_HOST: ollama.url } });
    expect([model.provider, model.modelId]).toEqual(['ollama', 'qwen3:8b']);
    await model.doGenerate(ask);
    expect(ollama.requests[0]?.body).toMatchObject({ model: 'qwen3:8b', think: false });
  });

  it('applies a model override and keeps the section settings', async () => {
    const ollama = await track(startFakeOllama(['ok']));
    const config = await configWith(`[runtime.llm.fast]\nbase_url = "${ollama.url}"\nthink = true\n`);
    const model = resolveModel(config, 'fast', { model: 'llama3.1:8b' }, { env: {} });
    await model.doGenerate(ask);
    expect(ollama.requests[0]?.body).toMatchObject({ model: 'llama3.1:8b', think: true });
  });

  it('applies a provider override with that provider defaults, reading its env', async () => {
    const anthropic = await track(startFakeAnthropic(['from claude'], { apiKey: 'sk-ant' }));
    const config = await configWith(
      '[runtime.llm.fast]\nmodel = "qwen3:8b"\nbase_url = "http://127.0.0.1:9"\n',
    );
    const model = resolveModel(
      config,
      'fast',
      { provider: 'anthropic' },
      {
        env: { ANTHROPIC_BASE_URL: anthropic.url, ANTHROPIC_API_KEY: 'sk-ant' },
      },
    );
    expect([model.provider, model.modelId]).toEqual(['anthropic', 'claude-sonnet-4-6']);
    expect((await model.doGenerate(ask)).text).toBe('from claude');
  });

  it('rejects an unknown provider override and an openai override without a model', () => {
    const config = defaultRuntimeConfig();
    const unknown = (() => {
      try {
        return resolveModel(config, 'fast', { provider: 'gemini' }, { env: {} });
      } catch (error) {
        return error;
      }
    })();
    expect(ScratchpadError.hasCode(unknown, 'CONFIG_INVALID')).toBe(true);
    expect(() => resolveModel(config, 'fast', { provider: 'openai' }, { env: {} })).toThrow(
      /needs a model name/,
    );
  });

  it('fails with CONFIG_INVALID when a remote tier has no API key, naming the variable', async () => {
    const config = await configWith(
      '[runtime.llm.wise]\nprovider = "anthropic"\napi_key_env = "MY_CLAUDE_KEY"\n',
    );
    let error: unknown;
    try {
      resolveModel(config, 'wise', {}, { env: {} });
    } catch (caught) {
      error = caught;
    }
    expect(ScratchpadError.hasCode(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as ScratchpadError).hint).toContain('MY_CLAUDE_KEY');
    expect(resolveModel(config, 'wise', {}, { env: { MY_CLAUDE_KEY: 'sk-ant-1' } }).modelId).toBe(
      'claude-sonnet-4-6',
    );
  });
});
