import { ScratchpadError } from '../../core/errors.js';
import type { LanguageModel } from '../model/language-model.js';
import { createAnthropic } from '../providers/anthropic-model.js';
import { createOllama } from '../providers/ollama-model.js';
import { createOpenAICompatible } from '../providers/openai-compatible-model.js';
import type { Environment } from './config-path.js';
import { resolveTier } from './resolve-tier.js';
import {
  DEFAULT_MODELS,
  PROVIDER_ALIASES,
  type RuntimeConfig,
  type Tier,
  type TierSettings,
} from './runtime-config.js';

/** Command-line style overrides of a tier's provider and model (`--provider`, `--model`). */
export interface ModelOverrides {
  provider?: string;
  model?: string;
}

/** Options of {@link resolveModel}. */
export interface ResolveModelOptions {
  /** The `fetch` every provider client uses. */
  fetch?: typeof fetch;
  /** Where base URLs and API keys are read from (default `process.env`). */
  env?: Environment;
}

/**
 * The language model for `tier`, built from its section (aliasing down when missing) with `overrides` applied.
 * A provider override that differs from the section's drops the section's provider-specific keys (`base_url`,
 * `api_key_env`, …) and uses that provider's defaults. Unknown provider, missing model for `openai`, or a remote
 * host without an API key: `CONFIG_INVALID`.
 */
export function resolveModel(
  config: RuntimeConfig,
  tier: Tier,
  overrides: ModelOverrides = {},
  options: ResolveModelOptions = {},
): LanguageModel {
  const settings = applyOverrides(resolveTier(config, tier).settings, overrides);
  const env = options.env ?? process.env;
  const fetch = options.fetch ? { fetch: options.fetch } : {};
  const common = {
    model: settings.model,
    env,
    ...fetch,
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
  };
  const remote = {
    ...(settings.apiKeyEnv === undefined ? {} : { apiKeyEnv: settings.apiKeyEnv }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
  };
  switch (settings.provider) {
    case 'ollama':
      return createOllama({ ...common, ...(settings.think === undefined ? {} : { think: settings.think }) });
    case 'openai':
      return createOpenAICompatible({ ...common, ...remote });
    case 'anthropic':
      return createAnthropic({ ...common, ...remote });
  }
}

function applyOverrides(settings: TierSettings, overrides: ModelOverrides): TierSettings {
  if (overrides.provider !== undefined) {
    const provider = PROVIDER_ALIASES[overrides.provider];
    if (!provider) {
      throw new ScratchpadError('CONFIG_INVALID', `Unknown provider "${overrides.provider}".`, {
        hint: `Use one of: ${Object.keys(PROVIDER_ALIASES).join(', ')}.`,
        details: { provider: overrides.provider },
      });
    }
    if (provider !== settings.provider) {
      const model = overrides.model ?? DEFAULT_MODELS[provider];
      if (!model) {
        throw new ScratchpadError('CONFIG_INVALID', `Provider ${provider} needs a model name.`, {
          hint: 'Pass a model (--model NAME), or configure one with model under [runtime.llm.<tier>].',
          details: { provider },
        });
      }
      return { provider, model };
    }
  }
  return overrides.model === undefined ? settings : { ...settings, model: overrides.model };
}
