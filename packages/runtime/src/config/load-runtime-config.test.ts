import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configFilePath } from 'llm-scratchpad/extension';
import { ScratchpadError } from 'llm-scratchpad';
import { DEFAULT_CALL_LIMITS } from '../sandbox/call-limits.js';
import { loadRuntimeConfig } from './load-runtime-config.js';
import { resolveTier } from './resolve-tier.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'scratchpad-config-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** Writes `text` at `$XDG_CONFIG_HOME/scratchpad/config.toml` under the temp home and returns the env. */
async function writeConfig(text: string) {
  const env = { XDG_CONFIG_HOME: join(home, 'xdg') };
  await mkdir(join(home, 'xdg', 'scratchpad'), { recursive: true });
  await writeFile(configFilePath(env), text);
  return env;
}

async function failure(promise: Promise<unknown>): Promise<ScratchpadError> {
  const error = await promise.catch((caught: unknown) => caught);
  if (!ScratchpadError.isInstance(error)) throw new Error(`expected a ScratchpadError, got ${String(error)}`);
  return error;
}

describe('configFilePath', () => {
  it('prefers SCRATCHPAD_CONFIG, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(configFilePath({ SCRATCHPAD_CONFIG: '/etc/sp.toml', XDG_CONFIG_HOME: '/x' })).toBe('/etc/sp.toml');
    expect(configFilePath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/scratchpad/config.toml');
    expect(configFilePath({ HOME: '/home/ada' })).toBe('/home/ada/.config/scratchpad/config.toml');
  });
});

describe('loadRuntimeConfig', () => {
  it('uses the defaults when there is no file: a fast tier on local Ollama, qwen3:8b, think off', async () => {
    const config = await loadRuntimeConfig({ env: { XDG_CONFIG_HOME: join(home, 'nothing-here') } });
    expect(config).toEqual({
      path: undefined,
      mode: 'local',
      capSteps: 5,
      capSameExecutor: 2,
      llm: { fast: { provider: 'ollama', model: 'qwen3:8b', think: false } },
      sandbox: {
        enabled: true,
        writeRoots: [],
        hide: [],
        network: [],
        localNetwork: [],
        limits: DEFAULT_CALL_LIMITS,
      },
      raw: {},
      escalateTier: false,
      scratchpadTtlSeconds: 3600,
      maxStoredBytes: 1024 ** 3,
      hybrid: {
        criticalCapabilities: ['code:exec'],
        escalateOn: ['cap_steps', 'cap_same_executor', 'error'],
      },
      vaglio: { judge: 'rules', maxJudgeCallsPerTurn: 10 },
      summaries: {
        enabled: false,
        tier: 'fast',
        minBytes: 50_000,
        maxBytes: 1_000_000,
        timeoutMs: 20_000,
        maxInputTokens: 24_000,
        maxOutputTokens: 400,
      },
    });
    expect(resolveTier(config, 'wise')).toMatchObject({
      requested: 'wise',
      tier: 'fast',
      settings: config.llm.fast,
    });
  });

  it("reads the seed's three tiers and the [runtime] keys", async () => {
    const env = await writeConfig(`
[runtime]
mode = "hybrid"
cap_steps = 8
cap_same_executor = 3
escalate_tier = true
scratchpad_ttl_seconds = 600
max_stored_bytes = 2_000_000_000

[runtime.llm.fast]
provider = "ollama"
model = "qwen3:8b"
think = false

[runtime.llm.middle]
provider = "ollama"
model = "gemma3:12b"
base_url = "http://gpu-box.local:11434"

[runtime.llm.wise]
provider = "anthropic"
model = "claude-sonnet-4-6"
api_key_env = "WORK_ANTHROPIC_KEY"
max_output_tokens = 8192
max_retries = 1
timeout_ms = 120000

prompt_file = "prompts/wise.md"

[runtime.hybrid]
critical_capabilities = ["code:exec", "net:http"]
escalate_on = ["cap_steps"]

[runtime.vaglio]
judge = "both"
max_judge_calls_per_turn = 4

[runtime.summaries]
enabled = true
tier = "middle"
min_bytes = 10_000
max_bytes = 2_000_000
timeout_ms = 30000
max_input_tokens = 16000
max_output_tokens = 300
`);
    const config = await loadRuntimeConfig({ env });
    expect(config.path).toBe(configFilePath(env));
    expect(config).toMatchObject({
      mode: 'hybrid',
      capSteps: 8,
      capSameExecutor: 3,
      escalateTier: true,
      scratchpadTtlSeconds: 600,
      maxStoredBytes: 2_000_000_000,
    });
    expect(config.llm).toEqual({
      fast: { provider: 'ollama', model: 'qwen3:8b', think: false },
      middle: { provider: 'ollama', model: 'gemma3:12b', baseURL: 'http://gpu-box.local:11434' },
      wise: {
        provider: 'anthropic',
        model: 'claude-sonnet-4-6',
        apiKeyEnv: 'WORK_ANTHROPIC_KEY',
        maxOutputTokens: 8192,
        maxRetries: 1,
        timeoutMs: 120000,
        promptFile: join(home, 'xdg', 'scratchpad', 'prompts', 'wise.md'),
      },
    });
    expect(config.hybrid).toEqual({
      criticalCapabilities: ['code:exec', 'net:http'],
      escalateOn: ['cap_steps'],
    });
    expect(config.vaglio).toEqual({ judge: 'both', maxJudgeCallsPerTurn: 4 });
    expect(config.summaries).toEqual({
      enabled: true,
      tier: 'middle',
      minBytes: 10_000,
      maxBytes: 2_000_000,
      timeoutMs: 30_000,
      maxInputTokens: 16_000,
      maxOutputTokens: 300,
    });
    expect(resolveTier(config, 'wise').tier).toBe('wise');
  });

  it('aliases missing tiers down: wise → middle → fast', async () => {
    const onlyMiddle = await loadRuntimeConfig({
      env: await writeConfig('[runtime.llm.middle]\nprovider = "ollama"\nmodel = "gemma3:12b"\n'),
    });
    expect(onlyMiddle.llm.fast).toEqual({ provider: 'ollama', model: 'qwen3:8b', think: false });
    expect(resolveTier(onlyMiddle, 'wise')).toMatchObject({
      tier: 'middle',
      settings: { model: 'gemma3:12b' },
    });
    expect(resolveTier(onlyMiddle, 'middle').tier).toBe('middle');
    expect(resolveTier(onlyMiddle, 'fast').tier).toBe('fast');

    const onlyFast = await loadRuntimeConfig({
      env: await writeConfig('[runtime.llm.fast]\nmodel = "llama3.1:8b"\n'),
    });
    expect(onlyFast.llm.fast).toEqual({ provider: 'ollama', model: 'llama3.1:8b' });
    expect(resolveTier(onlyFast, 'middle')).toMatchObject({
      tier: 'fast',
      settings: { model: 'llama3.1:8b' },
    });
    expect(resolveTier(onlyFast, 'wise')).toMatchObject({ tier: 'fast', settings: { model: 'llama3.1:8b' } });
  });

  it('accepts an empty file and files without a [runtime] section', async () => {
    expect((await loadRuntimeConfig({ env: await writeConfig('') })).llm.fast.model).toBe('qwen3:8b');
    expect(
      (await loadRuntimeConfig({ env: await writeConfig('[scratchpad]\nthreshold = 4096\n') })).mode,
    ).toBe('local');
  });

  it('names the file and line of invalid TOML', async () => {
    const env = await writeConfig('[runtime]\nmode = "local"\n[runtime.llm.fast\nmodel = "x"\n');
    const error = await failure(loadRuntimeConfig({ env }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(`${configFilePath(env)}:3:`);
    expect(error.message).toContain('invalid TOML');
    expect(error.details).toMatchObject({ path: configFilePath(env), line: 3 });
  });

  it('names the file and line of an unknown provider', async () => {
    const env = await writeConfig('[runtime.llm.fast]\nmodel = "x"\nprovider = "gemini"\n');
    const error = await failure(loadRuntimeConfig({ env }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe(`${configFilePath(env)}:3: unknown provider "gemini" in [runtime.llm.fast]`);
    expect(error.hint).toContain('ollama, openai, openai-compatible, anthropic');
  });

  it('finds the line of a key written as an inline table or a dotted key', async () => {
    const inline = await writeConfig('[runtime.llm]\nfast = { provider = "nope", model = "x" }\n');
    expect((await failure(loadRuntimeConfig({ env: inline }))).details.line).toBe(2);
    const dotted = await writeConfig('[runtime]\nmode = "local"\nllm.fast.provider = "nope"\n');
    expect((await failure(loadRuntimeConfig({ env: dotted }))).details.line).toBe(3);
  });

  it('rejects unknown tiers, unknown keys, an API key in the file, and values of the wrong type', async () => {
    const cases: Array<[string, RegExp]> = [
      ['[runtime.llm.smart]\nmodel = "x"\n', /:1: unknown tier \[runtime.llm.smart\]/],
      ['[runtime.llm.fast]\nmodle = "x"\n', /:2: unknown key modle in \[runtime.llm.fast\]/],
      ['[runtime.llm.fast]\napi_key = "sk-123"\n', /:2: unknown key api_key/],
      ['[runtime.llm.fast]\nthink = "no"\n', /:2: think must be true or false/],
      [
        '[runtime.llm.fast]\napi_key_env = "sk-live-123"\n',
        /:2: api_key_env must be the name of an environment variable, not a key$/,
      ],
      ['[runtime.llm.fast]\ntemperature = 5\n', /:2: temperature must be a number from 0 to 2/],
      ['[runtime]\ncap_steps = "5"\n', /:2: cap_steps must be a whole number/],
      ['[runtime]\nmode = "cloud"\n', /:2: mode must be one of "local", "online", "hybrid" \(got "cloud"\)/],
      [
        '[runtime.llm.wise]\nprovider = "openai"\n',
        /:1: \[runtime.llm.wise\] needs a model for provider openai/,
      ],
      ['runtime = 3\n', /:1: runtime must be a table/],
      ['[runtime]\nescalate_tier = "yes"\n', /:2: escalate_tier must be true or false/],
      ['[runtime]\nscratchpad_ttl_seconds = 0\n', /:2: scratchpad_ttl_seconds must be a whole number/],
      ['[runtime]\nmax_stored_bytes = 0\n', /:2: max_stored_bytes must be a whole number/],
      ['[runtime.hybrid]\nescalate_on = ["timeout"]\n', /:2: escalate_on must be a list of "cap_steps"/],
      ['[runtime.hybrid]\ncritical_capabilities = ["exec"]\n', /:2: critical_capabilities must be a list/],
      ['[runtime.hybrid]\ncritical = ["code:exec"]\n', /:2: unknown key critical in \[runtime.hybrid\]/],
      ['[runtime.vaglio]\njudge = "llm"\n', /:2: judge must be one of "rules", "model", "both"/],
      ['[runtime.vaglio]\nmax_judge_calls_per_turn = -1\n', /:2: max_judge_calls_per_turn must be/],
      ['[runtime]\nvaglio = 1\n', /:2: runtime.vaglio must be a table/],
      ['[runtime.summaries]\nenabled = "yes"\n', /:2: enabled must be true or false/],
      ['[runtime.summaries]\ntier = "smart"\n', /:2: tier must be one of "fast", "middle", "wise"/],
      ['[runtime.summaries]\nmin_bytes = -1\n', /:2: min_bytes must be a whole number, 0 or more/],
      ['[runtime.summaries]\nmax_bytes = 0\n', /:2: max_bytes must be a whole number, 1 or more/],
      ['[runtime.summaries]\nmax_bytes = 100_000_000\n', /:2: max_bytes must be at most 67108864/],
      [
        '[runtime.summaries]\nmin_bytes = 5000\nmax_bytes = 4000\n',
        /:3: max_bytes \(4000\) is below min_bytes \(5000\)/,
      ],
      ['[runtime.summaries]\nmin_bytes = 2_000_000\n', /:2: max_bytes \(1000000\) is below min_bytes/],
      ['[runtime.summaries]\ntimeout_ms = 3_000_000_000\n', /:2: timeout_ms must be at most 600000/],
      ['[runtime.summaries]\nmax_output_tokens = 1.5\n', /:2: max_output_tokens must be a whole number/],
      ['[runtime.summaries]\nmodel = "x"\n', /:2: unknown key model in \[runtime.summaries\]/],
      ['[runtime]\nsummaries = true\n', /:2: runtime.summaries must be a table/],
    ];
    for (const [text, pattern] of cases) {
      const error = await failure(loadRuntimeConfig({ env: await writeConfig(text) }));
      expect(error.code, text).toBe('CONFIG_INVALID');
      expect(error.message, text).toMatch(pattern);
    }
    const apiKey = await failure(
      loadRuntimeConfig({ env: await writeConfig('[runtime.llm.fast]\napi_key = "sk"\n') }),
    );
    expect(apiKey.hint).toContain('api_key_env');
  });

  it('reads [runtime.sandbox] and names the line of a bad value', async () => {
    const env = await writeConfig(`
[runtime.sandbox]
enabled = false
bwrap = "/opt/bin/bwrap"
write_roots = ["~/projects/site", "/srv/data"]
hide = ["~/.config/op"]
network = ["shell_exec"]
local_network = ["web_fetch"]
memory_mb = 512
processes = 64
file_size_mb = 100
`);
    expect((await loadRuntimeConfig({ env })).sandbox).toEqual({
      enabled: false,
      bwrapPath: '/opt/bin/bwrap',
      writeRoots: ['~/projects/site', '/srv/data'],
      hide: ['~/.config/op'],
      network: ['shell_exec'],
      localNetwork: ['web_fetch'],
      limits: { memoryMb: 512, processes: 64, fileSizeMb: 100 },
    });
    const cases: Array<[string, RegExp]> = [
      ['[runtime.sandbox]\nenabled = "no"\n', /:2: enabled must be true or false/],
      ['[runtime.sandbox]\nwrite_roots = ["projects"]\n', /:2: write_roots must be a list of absolute paths/],
      ['[runtime.sandbox]\nhide = "~/.x"\n', /:2: hide must be a list/],
      ['[runtime.sandbox]\nbwrap = "bwrap"\n', /:2: bwrap must be an absolute path/],
      ['[runtime.sandbox]\nnetwork = [1]\n', /:2: network must be a list of executor names/],
      [
        '[runtime.sandbox]\nlocal_network = "web_fetch"\n',
        /:2: local_network must be a list of executor names/,
      ],
      ['[runtime.sandbox]\nwrite = ["/x"]\n', /:2: unknown key write in \[runtime.sandbox\]/],
      ['[runtime]\nsandbox = 1\n', /:2: runtime.sandbox must be a table/],
      ['[runtime.sandbox]\nmemory_mb = "1G"\n', /:2: memory_mb must be a whole number/],
      ['[runtime.sandbox]\nprocesses = 0\n', /:2: processes must be a whole number from 1 to/],
      ['[runtime.sandbox]\nfile_size_mb = 1.5\n', /:2: file_size_mb must be a whole number from 1 to/],
    ];
    for (const [text, pattern] of cases) {
      const error = await failure(loadRuntimeConfig({ env: await writeConfig(text) }));
      expect(error.code, text).toBe('CONFIG_INVALID');
      expect(error.message, text).toMatch(pattern);
    }
  });

  it('requires a file named explicitly (argument or SCRATCHPAD_CONFIG) to exist', async () => {
    const missing = join(home, 'missing.toml');
    const byArgument = await failure(loadRuntimeConfig({ path: missing, env: {} }));
    expect(byArgument.code).toBe('CONFIG_INVALID');
    expect(byArgument.message).toContain(missing);
    const byEnv = await failure(loadRuntimeConfig({ env: { SCRATCHPAD_CONFIG: missing } }));
    expect(byEnv.message).toContain(missing);
  });

  it('reads the file SCRATCHPAD_CONFIG names', async () => {
    const path = join(home, 'team.toml');
    await writeFile(
      path,
      '[runtime.llm.fast]\nprovider = "openai-compatible"\nmodel = "qwen2.5-7b-instruct"\n',
    );
    const config = await loadRuntimeConfig({ env: { SCRATCHPAD_CONFIG: path } });
    expect(config.path).toBe(path);
    expect(config.llm.fast).toEqual({ provider: 'openai', model: 'qwen2.5-7b-instruct' });
  });

  it('reports a path that cannot be read as a file', async () => {
    const error = await failure(loadRuntimeConfig({ path: home, env: {} }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('EISDIR');
  });
});
