import OpenAI from 'openai';
import type { Environment } from 'llm-scratchpad/extension';
import type { GenerateOptions, GenerateResult, LanguageModel } from '../model/language-model.js';
import { openAICompatibleEndpoint } from './openai-compatible-endpoint.js';
import { fromOpenAIResponse, toOpenAIMessages, toOpenAITools } from './openai-compatible-messages.js';
import { requestTimeoutError, toProviderError } from './provider-error.js';
import { DEFAULT_PROVIDER_TIMEOUT_MS, startRequestDeadline } from './request-deadline.js';

export { DEFAULT_OPENAI_BASE_URL } from './openai-compatible-endpoint.js';

/** Configuration of {@link createOpenAICompatible}. */
export interface OpenAICompatibleConfig {
  model: string;
  /** Default `OPENAI_BASE_URL`, else `https://api.openai.com/v1` (vLLM, llama.cpp, LM Studio: `http://host:port/v1`). */
  baseURL?: string;
  /** Default `env[apiKeyEnv]`; optional for local and private hosts. */
  apiKey?: string;
  /** The variable the key is read from (default `OPENAI_API_KEY`). */
  apiKeyEnv?: string;
  fetch?: typeof fetch;
  /** Name reported as {@link LanguageModel.provider} (default `openai`). */
  providerName?: string;
  temperature?: number;
  maxOutputTokens?: number;
  /** Retries of the SDK on connection errors, 408, 409, 429 and 5xx (SDK default 2). */
  maxRetries?: number;
  /** Time limit of one call in milliseconds, retries included (default 120,000: `timeout_ms`). */
  timeoutMs?: number;
  /** Where `OPENAI_BASE_URL` and the key are read from (default `process.env`). */
  env?: Environment;
}

/**
 * A {@link LanguageModel} served by any OpenAI-compatible chat-completions endpoint through the official `openai`
 * client. Throws `CONFIG_INVALID` at creation when a remote host has no API key.
 */
export function createOpenAICompatible(config: OpenAICompatibleConfig): LanguageModel {
  const { endpoint, apiKey, hostname } = openAICompatibleEndpoint(config);
  const client = new OpenAI({
    apiKey,
    baseURL: endpoint.baseURL,
    ...(config.fetch ? { fetch: config.fetch } : {}),
    ...(config.maxRetries === undefined ? {} : { maxRetries: config.maxRetries }),
    timeout: config.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
  });
  // OpenAI's own API rejects `max_tokens` for reasoning models; most compatible servers only know `max_tokens`.
  const tokenCapField = hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
  return {
    specificationVersion: 'v1',
    provider: config.providerName ?? 'openai',
    modelId: config.model,
    async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
      const tools = toOpenAITools(options.tools);
      const temperature = options.temperature ?? config.temperature;
      const maxOutputTokens = options.maxOutputTokens ?? config.maxOutputTokens;
      const deadline = startRequestDeadline(config.timeoutMs, options.signal);
      let response: OpenAI.Chat.Completions.ChatCompletion;
      try {
        response = await client.chat.completions.create(
          {
            model: config.model,
            messages: toOpenAIMessages(options),
            stream: false,
            ...(tools ? { tools } : {}),
            ...(options.responseFormat
              ? {
                  response_format: {
                    type: 'json_schema' as const,
                    json_schema: {
                      name: options.responseFormat.name,
                      schema: options.responseFormat.schema,
                      strict: true,
                    },
                  },
                }
              : {}),
            ...(temperature === undefined ? {} : { temperature }),
            ...(maxOutputTokens === undefined ? {} : { [tokenCapField]: maxOutputTokens }),
          },
          { signal: deadline.signal },
        );
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (deadline.expired()) throw requestTimeoutError(endpoint, deadline.timeoutMs, error);
        throw toProviderError(error, endpoint, httpFailure(error), unreachableReason(error));
      }
      return fromOpenAIResponse(response);
    },
  };
}

function httpFailure(error: unknown): { status: number; message: string; body: unknown } | undefined {
  if (!(error instanceof OpenAI.APIError) || typeof error.status !== 'number') return undefined;
  const body = error.error as { message?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : error.message;
  return { status: error.status, message, body };
}

function unreachableReason(error: unknown): string | undefined {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'no answer in time';
  if (error instanceof OpenAI.APIConnectionError) return 'connection failed';
  return undefined;
}
