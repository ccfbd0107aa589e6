import type { Environment } from 'llm-scratchpad/extension';
import { ScratchpadError } from 'llm-scratchpad';
import type { LanguageModel } from '../model/language-model.js';
import { anthropicEndpoint } from '../providers/anthropic-endpoint.js';
import { lazyLanguageModel } from '../providers/lazy-model.js';
import { ollamaEndpoint } from '../providers/ollama-endpoint.js';
import { openAICompatibleEndpoint } from '../providers/openai-compatible-endpoint.js';
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
 * `api_key_env`, …) and uses that provider's defaults. Unknown provider, missing model for `openai`, a malformed
 * base URL or a remote host without an API key: `CONFIG_INVALID`, thrown here. The provider's SDK is imported on
 * the model's first request, so importing the runtime loads none of them.
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
  const identity = { provider: settings.provider, modelId: settings.model };
  // Each case checks its endpoint now (a bad configuration fails here, not at the first request), then defers
  // the module that imports the SDK.
  switch (settings.provider) {
    case 'ollama': {
      const config = { ...common, ...(settings.think === undefined ? {} : { think: settings.think }) };
      ollamaEndpoint(config);
      return lazyLanguageModel(identity, async () =>
        (await import('../providers/ollama-model.js')).createOllama(config),
      );
    }
    case 'openai': {
      const config = { ...common, ...remote };
      openAICompatibleEndpoint(config);
      return lazyLanguageModel(identity, async () =>
        (await import('../providers/openai-compatible-model.js')).createOpenAICompatible(config),
      );
    }
    case 'anthropic': {
      const config = { ...common, ...remote };
      anthropicEndpoint(config);
      return lazyLanguageModel(identity, async () =>
        (await import('../providers/anthropic-model.js')).createAnthropic(config),
      );
    }
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
