import { dirname, isAbsolute, resolve } from 'node:path';
import { parseToml } from 'llm-scratchpad/extension';
import { tomlKeyLine } from 'llm-scratchpad/extension';
import { ScratchpadError } from 'llm-scratchpad';
import { parseHybridSettings } from './parse-hybrid-settings.js';
import { parseJudgeSettings } from './parse-judge-settings.js';
import { parseSandboxSettings } from './parse-sandbox-settings.js';
import { parseSummarySettings } from './parse-summary-settings.js';
import {
  DEFAULT_FAST_TIER,
  DEFAULT_MODELS,
  PROVIDER_ALIASES,
  RUNTIME_DEFAULTS,
  type RuntimeConfig,
  type RuntimeMode,
  TIERS,
  type Tier,
  type TierSettings,
} from './runtime-config.js';

const TIER_KEYS = [
  'provider',
  'model',
  'think',
  'base_url',
  'api_key_env',
  'temperature',
  'max_output_tokens',
  'max_retries',
  'timeout_ms',
  'prompt_file',
];
const MODES: readonly RuntimeMode[] = ['local', 'online', 'hybrid'];

/**
 * Parses the runtime's `config.toml`. Reads `[runtime]` (`mode`, `cap_steps`, `cap_same_executor`,
 * `escalate_tier`, `scratchpad_ttl_seconds`, `max_stored_bytes`), the `[runtime.llm.fast|middle|wise]` sections, `[runtime.sandbox]`,
 * `[runtime.hybrid]`, `[runtime.vaglio]` and `[runtime.summaries]`; other keys and sections are kept in `raw` for other components.
 * Invalid TOML, an unknown provider, tier or tier key, or a value of the wrong type is a `CONFIG_INVALID` that
 * names the file and line. A missing `fast` section gets the default (Ollama `qwen3:8b`, think off).
 */
export function parseRuntimeConfig(text: string, path: string): RuntimeConfig {
  const raw = parseToml(text, path);
  const problem = (keyPath: string[], message: string, hint: string): ScratchpadError => {
    const line = tomlKeyLine(text, keyPath);
    return new ScratchpadError('CONFIG_INVALID', `${path}${line ? `:${line}` : ''}: ${message}`, {
      hint,
      details: { path, line, key: keyPath.join('.') },
    });
  };

  const runtime = table(raw.runtime, ['runtime'], problem);
  const mode = runtime.mode ?? RUNTIME_DEFAULTS.mode;
  if (typeof mode !== 'string' || !MODES.includes(mode as RuntimeMode)) {
    throw problem(
      ['runtime', 'mode'],
      `mode must be one of ${MODES.join(', ')}`,
      'Set mode = "local" (the default).',
    );
  }
  const llm = table(runtime.llm, ['runtime', 'llm'], problem);
  for (const name of Object.keys(llm)) {
    if (!TIERS.includes(name as Tier)) {
      throw problem(
        ['runtime', 'llm', name],
        `unknown tier [runtime.llm.${name}]`,
        `Tiers are ${TIERS.join(', ')}.`,
      );
    }
  }
  const tiers: Partial<Record<Tier, TierSettings>> = {};
  for (const tier of TIERS) {
    if (llm[tier] !== undefined)
      tiers[tier] = parseTier(tier, table(llm[tier], ['runtime', 'llm', tier], problem), problem, path);
  }
  return {
    path,
    mode: mode as RuntimeMode,
    capSteps: positiveInteger(runtime, 'cap_steps', ['runtime'], problem) ?? RUNTIME_DEFAULTS.capSteps,
    capSameExecutor:
      positiveInteger(runtime, 'cap_same_executor', ['runtime'], problem) ?? RUNTIME_DEFAULTS.capSameExecutor,
    llm: {
      fast: tiers.fast ?? { ...DEFAULT_FAST_TIER },
      ...(tiers.middle ? { middle: tiers.middle } : {}),
      ...(tiers.wise ? { wise: tiers.wise } : {}),
    },
    sandbox: parseSandboxSettings(runtime.sandbox, text, path),
    raw,
    escalateTier: optionalBoolean(runtime, 'escalate_tier', problem) ?? RUNTIME_DEFAULTS.escalateTier,
    scratchpadTtlSeconds:
      positiveInteger(runtime, 'scratchpad_ttl_seconds', ['runtime'], problem) ??
      RUNTIME_DEFAULTS.scratchpadTtlSeconds,
    maxStoredBytes:
      positiveInteger(runtime, 'max_stored_bytes', ['runtime'], problem) ?? RUNTIME_DEFAULTS.maxStoredBytes,
    hybrid: parseHybridSettings(runtime.hybrid, { text, path }),
    vaglio: parseJudgeSettings(runtime.vaglio, { text, path }),
    summaries: parseSummarySettings(runtime.summaries, { text, path }),
  };
}

type Problem = (keyPath: string[], message: string, hint: string) => ScratchpadError;

function parseTier(
  tier: Tier,
  section: Record<string, unknown>,
  problem: Problem,
  configPath: string,
): TierSettings {
  const at = ['runtime', 'llm', tier];
  for (const key of Object.keys(section)) {
    if (TIER_KEYS.includes(key)) continue;
    throw problem(
      [...at, key],
      `unknown key ${key} in [runtime.llm.${tier}]`,
      key === 'api_key'
        ? 'Keep keys out of the file: export the key in an environment variable and name it with api_key_env.'
        : `Known keys: ${TIER_KEYS.join(', ')}.`,
    );
  }
  const providerText = optionalString(section, 'provider', at, problem) ?? 'ollama';
  const provider = PROVIDER_ALIASES[providerText];
  if (!provider) {
    throw problem(
      [...at, 'provider'],
      `unknown provider "${providerText}" in [runtime.llm.${tier}]`,
      `Use one of: ${Object.keys(PROVIDER_ALIASES).join(', ')}.`,
    );
  }
  const model = optionalString(section, 'model', at, problem) ?? DEFAULT_MODELS[provider];
  if (!model) {
    throw problem(
      at,
      `[runtime.llm.${tier}] needs a model for provider ${provider}`,
      'Add model = "<the model name your server serves>".',
    );
  }
  const settings: TierSettings = { provider, model };
  if (section.think !== undefined) {
    if (typeof section.think !== 'boolean')
      throw problem([...at, 'think'], 'think must be true or false', 'Write think = false.');
    settings.think = section.think;
  }
  const baseURL = optionalString(section, 'base_url', at, problem);
  if (baseURL !== undefined) settings.baseURL = baseURL;
  const apiKeyEnv = optionalString(section, 'api_key_env', at, problem);
  if (apiKeyEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv)) {
      throw problem(
        [...at, 'api_key_env'],
        `api_key_env must name an environment variable, not hold a key`,
        'Write api_key_env = "OPENAI_API_KEY" and export the key in that variable.',
      );
    }
    settings.apiKeyEnv = apiKeyEnv;
  }
  if (section.temperature !== undefined) {
    const value = section.temperature;
    if (typeof value !== 'number' || value < 0 || value > 2) {
      throw problem(
        [...at, 'temperature'],
        'temperature must be a number from 0 to 2',
        'Write temperature = 0.2.',
      );
    }
    settings.temperature = value;
  }
  const maxOutputTokens = positiveInteger(section, 'max_output_tokens', at, problem);
  if (maxOutputTokens !== undefined) settings.maxOutputTokens = maxOutputTokens;
  const timeoutMs = positiveInteger(section, 'timeout_ms', at, problem);
  if (timeoutMs !== undefined) settings.timeoutMs = timeoutMs;
  if (section.max_retries !== undefined) {
    const value = section.max_retries;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw problem(
        [...at, 'max_retries'],
        'max_retries must be a whole number, 0 or more',
        'Write max_retries = 2.',
      );
    }
    settings.maxRetries = value;
  }
  const promptFile = optionalString(section, 'prompt_file', at, problem);
  if (promptFile !== undefined)
    settings.promptFile = isAbsolute(promptFile) ? promptFile : resolve(dirname(configPath), promptFile);
  return settings;
}

function optionalBoolean(
  section: Record<string, unknown>,
  key: string,
  problem: Problem,
): boolean | undefined {
  const value = section[key];
  if (value === undefined || typeof value === 'boolean') return value;
  throw problem(['runtime', key], `${key} must be true or false`, `Write ${key} = true (no quotes).`);
}

function table(value: unknown, at: string[], problem: Problem): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)) {
    return value as Record<string, unknown>;
  }
  throw problem(at, `${at.join('.')} must be a table`, `Write it as a section: [${at.join('.')}].`);
}

function optionalString(
  section: Record<string, unknown>,
  key: string,
  at: string[],
  problem: Problem,
): string | undefined {
  const value = section[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw problem([...at, key], `${key} must be a non-empty string`, `Write ${key} = "…" with quotes.`);
  }
  return value;
}

function positiveInteger(
  section: Record<string, unknown>,
  key: string,
  at: string[],
  problem: Problem,
): number | undefined {
  const value = section[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw problem([...at, key], `${key} must be a whole number, 1 or more`, `Write ${key} = 5 (no quotes).`);
  }
  return value;
}
