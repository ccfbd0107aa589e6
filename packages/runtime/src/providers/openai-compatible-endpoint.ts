import { configFilePath, type Environment } from 'llm-scratchpad/extension';
import { resolveApiKey } from './api-key.js';
import { parseBaseURL } from './parse-base-url.js';
import type { ProviderEndpoint } from './provider-error.js';

/** The base URL used when neither `baseURL` nor `OPENAI_BASE_URL` is set. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Where an OpenAI-compatible model is served, and the key it is called with. */
export interface OpenAICompatibleEndpoint {
  endpoint: ProviderEndpoint;
  apiKey: string;
  /** The base URL's host name (OpenAI's own API takes another output cap field than compatible servers). */
  hostname: string;
}

/**
 * The endpoint of an OpenAI-compatible model: the given base URL, else `OPENAI_BASE_URL`, else
 * {@link DEFAULT_OPENAI_BASE_URL}, and its key. Needs no SDK, so a configuration is checked before the client is
 * loaded. A malformed URL, or a remote host without an API key, is `CONFIG_INVALID`.
 */
export function openAICompatibleEndpoint(config: {
  model: string;
  baseURL?: string;
  apiKey?: string;
  apiKeyEnv?: string;
  env?: Environment;
}): OpenAICompatibleEndpoint {
  const env = config.env ?? process.env;
  const baseURL = (config.baseURL || env.OPENAI_BASE_URL || DEFAULT_OPENAI_BASE_URL).replace(/\/$/, '');
  const { hostname } = parseBaseURL(baseURL, 'OPENAI_BASE_URL');
  const apiKeyEnv = config.apiKeyEnv ?? 'OPENAI_API_KEY';
  const label = 'the OpenAI-compatible server';
  const apiKey = resolveApiKey({ apiKey: config.apiKey, apiKeyEnv, env, baseURL, label });
  return {
    endpoint: {
      label,
      baseURL,
      hostEnv: 'OPENAI_BASE_URL',
      apiKeyEnv,
      model: config.model,
      configPath: configFilePath(env),
    },
    apiKey,
    hostname,
  };
}
