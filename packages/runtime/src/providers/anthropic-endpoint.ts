import { configFilePath, type Environment } from 'llm-scratchpad/extension';
import { resolveApiKey } from './api-key.js';
import { parseBaseURL } from './parse-base-url.js';
import type { ProviderEndpoint } from './provider-error.js';

/** The base URL used when neither `baseURL` nor `ANTHROPIC_BASE_URL` is set. */
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** Where an Anthropic model is served, and the key it is called with. */
export interface AnthropicEndpoint {
  endpoint: ProviderEndpoint;
  apiKey: string;
}

/**
 * The endpoint of an Anthropic model: the given base URL, else `ANTHROPIC_BASE_URL`, else
 * {@link DEFAULT_ANTHROPIC_BASE_URL}, and its key. Needs no SDK, so a configuration is checked before the client
 * is loaded. A malformed URL, or a remote host without an API key, is `CONFIG_INVALID`.
 */
export function anthropicEndpoint(config: {
  model: string;
  baseURL?: string;
  apiKey?: string;
  apiKeyEnv?: string;
  env?: Environment;
}): AnthropicEndpoint {
  const env = config.env ?? process.env;
  const baseURL = (config.baseURL || env.ANTHROPIC_BASE_URL || DEFAULT_ANTHROPIC_BASE_URL).replace(/\/$/, '');
  parseBaseURL(baseURL, 'ANTHROPIC_BASE_URL');
  const apiKeyEnv = config.apiKeyEnv ?? 'ANTHROPIC_API_KEY';
  const apiKey = resolveApiKey({ apiKey: config.apiKey, apiKeyEnv, env, baseURL, label: 'Anthropic' });
  return {
    endpoint: {
      label: 'Anthropic',
      baseURL,
      hostEnv: 'ANTHROPIC_BASE_URL',
      apiKeyEnv,
      model: config.model,
      configPath: configFilePath(env),
    },
    apiKey,
  };
}
