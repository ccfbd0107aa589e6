import { dirname, isAbsolute, resolve } from 'node:path';
import {
  type ConfigSource,
  configField,
  configProblem,
  parseConfigSection,
  parseToml,
} from 'llm-scratchpad/extension';
import { z } from 'zod';
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

const MODES: readonly RuntimeMode[] = ['local', 'online', 'hybrid'];

/** `[runtime]`'s own keys; its other keys and sub-tables belong to other components (and the parsers below). */
const RUNTIME_SCHEMA = z.looseObject({
  mode: configField.choice(MODES),
  cap_steps: configField.integer(1, undefined, '5'),
  cap_same_executor: configField.integer(1, undefined, '5'),
  escalate_tier: configField.boolean(),
  scratchpad_ttl_seconds: configField.integer(1, undefined, '86400'),
  max_stored_bytes: configField.integer(1, undefined, '1000000'),
  /** Sub-tables, each checked by its own parser. */
  llm: z.unknown(),
  sandbox: z.unknown(),
  hybrid: z.unknown(),
  vaglio: z.unknown(),
  summaries: z.unknown(),
});

const TIER_SCHEMA = z.strictObject({
  provider: configField.string(),
  model: configField.string(),
  think: configField.boolean(),
  base_url: configField.string(),
  api_key_env: configField.custom(
    z.string().refine((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name), {
      message: 'the name of an environment variable, not a key',
      params: { hint: 'Write api_key_env = "OPENAI_API_KEY" and export the key in that variable.' },
    }),
    { expected: 'the name of an environment variable', example: '"OPENAI_API_KEY"', redact: true },
  ),
  temperature: configField.custom(z.number().min(0).max(2), {
    expected: 'a number from 0 to 2',
    example: '0.2',
  }),
  max_output_tokens: configField.integer(1, undefined, '4096'),
  max_retries: configField.integer(0, undefined, '2'),
  timeout_ms: configField.integer(1, undefined, '60000'),
  prompt_file: configField.string(),
});

/**
 * Parses the runtime's `config.toml`. Reads `[runtime]` (`mode`, `cap_steps`, `cap_same_executor`,
 * `escalate_tier`, `scratchpad_ttl_seconds`, `max_stored_bytes`), the `[runtime.llm.fast|middle|wise]` sections, `[runtime.sandbox]`,
 * `[runtime.hybrid]`, `[runtime.vaglio]` and `[runtime.summaries]`; other keys and sections are kept in `raw` for other components.
 * Invalid TOML, an unknown provider, tier or tier key, or a value of the wrong type is a `CONFIG_INVALID` that
 * names the file and line. A missing `fast` section gets the default (Ollama `qwen3:8b`, think off).
 */
export function parseRuntimeConfig(text: string, path: string): RuntimeConfig {
  const raw = parseToml(text, path);
  const source = { text, path };
  const runtime = parseConfigSection(RUNTIME_SCHEMA, raw.runtime, ['runtime'], source);
  const llm = runtime.llm ?? {};
  if (typeof llm !== 'object' || llm === null || Array.isArray(llm) || llm instanceof Date)
    throw configProblem(source, ['runtime', 'llm'], 'runtime.llm must be a table', 'Write it as a section: [runtime.llm].');
  for (const name of Object.keys(llm)) {
    if (!TIERS.includes(name as Tier)) {
      throw configProblem(
        source,
        ['runtime', 'llm', name],
        `unknown tier [runtime.llm.${name}]`,
        `Tiers are ${TIERS.join(', ')}.`,
      );
    }
  }
  const tiers: Partial<Record<Tier, TierSettings>> = {};
  for (const tier of TIERS) {
    const section = (llm as Record<string, unknown>)[tier];
    if (section !== undefined) tiers[tier] = parseTier(tier, section, source);
  }
  return {
    path,
    mode: runtime.mode ?? RUNTIME_DEFAULTS.mode,
    capSteps: runtime.cap_steps ?? RUNTIME_DEFAULTS.capSteps,
    capSameExecutor: runtime.cap_same_executor ?? RUNTIME_DEFAULTS.capSameExecutor,
    llm: {
      fast: tiers.fast ?? { ...DEFAULT_FAST_TIER },
      ...(tiers.middle ? { middle: tiers.middle } : {}),
      ...(tiers.wise ? { wise: tiers.wise } : {}),
    },
    sandbox: parseSandboxSettings(runtime.sandbox, text, path),
    raw,
    escalateTier: runtime.escalate_tier ?? RUNTIME_DEFAULTS.escalateTier,
    scratchpadTtlSeconds: runtime.scratchpad_ttl_seconds ?? RUNTIME_DEFAULTS.scratchpadTtlSeconds,
    maxStoredBytes: runtime.max_stored_bytes ?? RUNTIME_DEFAULTS.maxStoredBytes,
    hybrid: parseHybridSettings(runtime.hybrid, { text, path }),
    vaglio: parseJudgeSettings(runtime.vaglio, { text, path }),
    summaries: parseSummarySettings(runtime.summaries, { text, path }),
  };
}

function parseTier(tier: Tier, value: unknown, source: ConfigSource): TierSettings {
  const at = ['runtime', 'llm', tier];
  if (typeof value === 'object' && value !== null && 'api_key' in value) {
    throw configProblem(
      source,
      [...at, 'api_key'],
      `unknown key api_key in [runtime.llm.${tier}]`,
      'Keep keys out of the file: export the key in an environment variable and name it with api_key_env.',
    );
  }
  const section = parseConfigSection(TIER_SCHEMA, value, at, source);
  const providerText = section.provider ?? 'ollama';
  const provider = PROVIDER_ALIASES[providerText];
  if (!provider) {
    throw configProblem(
      source,
      [...at, 'provider'],
      `unknown provider "${providerText}" in [runtime.llm.${tier}]`,
      `Use one of: ${Object.keys(PROVIDER_ALIASES).join(', ')}.`,
    );
  }
  const model = section.model ?? DEFAULT_MODELS[provider];
  if (!model) {
    throw configProblem(
      source,
      at,
      `[runtime.llm.${tier}] needs a model for provider ${provider}`,
      'Add model = "<the model name your server serves>".',
    );
  }
  const settings: TierSettings = { provider, model };
  if (section.think !== undefined) settings.think = section.think;
  if (section.base_url !== undefined) settings.baseURL = section.base_url;
  if (section.api_key_env !== undefined) settings.apiKeyEnv = section.api_key_env;
  if (section.temperature !== undefined) settings.temperature = section.temperature;
  if (section.max_output_tokens !== undefined) settings.maxOutputTokens = section.max_output_tokens;
  if (section.timeout_ms !== undefined) settings.timeoutMs = section.timeout_ms;
  if (section.max_retries !== undefined) settings.maxRetries = section.max_retries;
  if (section.prompt_file !== undefined)
    settings.promptFile = isAbsolute(section.prompt_file)
      ? section.prompt_file
      : resolve(dirname(source.path), section.prompt_file);
  return settings;
}
