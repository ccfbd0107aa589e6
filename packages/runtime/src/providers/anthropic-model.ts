import Anthropic from '@anthropic-ai/sdk';
import type { Environment } from 'llm-scratchpad/extension';
import type { GenerateOptions, GenerateResult, LanguageModel } from '../model/language-model.js';
import { anthropicEndpoint } from './anthropic-endpoint.js';
import { fromAnthropicResponse, toAnthropicMessages, toAnthropicTools } from './anthropic-messages.js';
import { requestTimeoutError, toProviderError } from './provider-error.js';
import { DEFAULT_PROVIDER_TIMEOUT_MS, startRequestDeadline } from './request-deadline.js';

export { DEFAULT_ANTHROPIC_BASE_URL } from './anthropic-endpoint.js';

/** The `max_tokens` sent when neither the call nor the config gives one (the API requires it). */
export const DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS = 4096;

/** Configuration of {@link createAnthropic}. */
export interface AnthropicConfig {
  /** E.g. `claude-sonnet-4-6`. */
  model: string;
  /** Default `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  baseURL?: string;
  /** Default `env[apiKeyEnv]`; optional for local and private hosts (proxies, gateways). */
  apiKey?: string;
  /** The variable the key is read from (default `ANTHROPIC_API_KEY`). */
  apiKeyEnv?: string;
  fetch?: typeof fetch;
  /** `max_tokens` when a call gives none (default 4096). */
  maxOutputTokens?: number;
  /** Retries of the SDK on connection errors, 408, 409, 429 and 5xx (SDK default 2). */
  maxRetries?: number;
  /** Time limit of one call in milliseconds, retries included (default 120,000: `timeout_ms`). */
  timeoutMs?: number;
  /** Where `ANTHROPIC_BASE_URL` and the key are read from (default `process.env`). */
  env?: Environment;
}

/**
 * A {@link LanguageModel} served by Anthropic's Messages API through the official `@anthropic-ai/sdk` client.
 * The key is always passed explicitly, so the SDK never falls back to credential files. The installed SDK's
 * request type has no `temperature`, so a call's `temperature` is not sent. Throws `CONFIG_INVALID` at creation
 * when a remote host has no API key.
 */
export function createAnthropic(config: AnthropicConfig): LanguageModel {
  const { endpoint, apiKey } = anthropicEndpoint(config);
  const client = new Anthropic({
    apiKey,
    baseURL: endpoint.baseURL,
    ...(config.fetch ? { fetch: config.fetch } : {}),
    ...(config.maxRetries === undefined ? {} : { maxRetries: config.maxRetries }),
    timeout: config.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
  });
  return {
    specificationVersion: 'v1',
    provider: 'anthropic',
    modelId: config.model,
    async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
      const tools = toAnthropicTools(options.tools);
      const deadline = startRequestDeadline(config.timeoutMs, options.signal);
      let response: Anthropic.Message;
      try {
        response = await client.messages.create(
          {
            model: config.model,
            max_tokens:
              options.maxOutputTokens ?? config.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS,
            messages: toAnthropicMessages(options.messages),
            ...(options.system ? { system: options.system } : {}),
            ...(tools ? { tools } : {}),
            ...(options.responseFormat
              ? { output_config: { format: { type: 'json_schema', schema: options.responseFormat.schema } } }
              : {}),
            stream: false,
          },
          { signal: deadline.signal },
        );
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (deadline.expired()) throw requestTimeoutError(endpoint, deadline.timeoutMs, error);
        throw toProviderError(error, endpoint, httpFailure(error), unreachableReason(error));
      }
      return fromAnthropicResponse(response);
    },
  };
}

function httpFailure(error: unknown): { status: number; message: string; body: unknown } | undefined {
  if (!(error instanceof Anthropic.APIError) || typeof error.status !== 'number') return undefined;
  const body = error.error as { error?: { message?: unknown } } | undefined;
  const message =
    error.apiMessage ??
    (typeof body?.error?.message === 'string' ? body.error.message : undefined) ??
    error.message;
  return { status: error.status, message, body };
}

function unreachableReason(error: unknown): string | undefined {
  if (error instanceof Anthropic.APIConnectionTimeoutError) return 'no answer in time';
  if (error instanceof Anthropic.APIConnectionError) return 'connection failed';
  return undefined;
}
