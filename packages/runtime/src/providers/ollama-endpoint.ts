import { configFilePath, type Environment } from 'llm-scratchpad/extension';
import { parseBaseURL } from './parse-base-url.js';
import type { ProviderEndpoint } from './provider-error.js';

/** The Ollama host used when neither `baseURL` nor `OLLAMA_HOST` is set. */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

/**
 * Where an Ollama model is served: the given host, else `OLLAMA_HOST`, else {@link DEFAULT_OLLAMA_HOST}. Needs no
 * SDK, so a configuration is checked before the client is loaded. A malformed host is `CONFIG_INVALID`.
 */
export function ollamaEndpoint(config: {
  model: string;
  baseURL?: string;
  env?: Environment;
}): ProviderEndpoint {
  const env = config.env ?? process.env;
  return {
    label: 'Ollama',
    baseURL: normalizeOllamaHost(config.baseURL || env.OLLAMA_HOST || DEFAULT_OLLAMA_HOST),
    hostEnv: 'OLLAMA_HOST',
    model: config.model,
    configPath: configFilePath(env),
  };
}

/** `OLLAMA_HOST` accepts `host`, `host:port` and full URLs; the client defaults the port to 11434 without a scheme. */
export function normalizeOllamaHost(host: string): string {
  const hasScheme = host.includes('://');
  const url = parseBaseURL(
    hasScheme ? host : `http://${host.startsWith(':') ? `127.0.0.1${host}` : host}`,
    'OLLAMA_HOST',
  );
  if (!url.port && !hasScheme) url.port = '11434';
  return url.href.replace(/\/$/, '');
}
