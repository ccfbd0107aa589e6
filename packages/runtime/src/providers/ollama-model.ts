import { Ollama } from 'ollama';
import type { Environment } from 'llm-scratchpad/extension';
import type { GenerateOptions, GenerateResult, LanguageModel } from '../model/language-model.js';
import { ollamaEndpoint } from './ollama-endpoint.js';
import { fromOllamaResponse, toOllamaMessages, toOllamaTools } from './ollama-messages.js';
import { requestTimeoutError, toProviderError } from './provider-error.js';
import { startRequestDeadline } from './request-deadline.js';

export { DEFAULT_OLLAMA_HOST, normalizeOllamaHost } from './ollama-endpoint.js';

/** Configuration of {@link createOllama}. */
export interface OllamaConfig {
  /** The model tag, e.g. `qwen3:8b`. */
  model: string;
  /** Server URL; default `OLLAMA_HOST`, else `http://127.0.0.1:11434`. */
  baseURL?: string;
  /** The `fetch` the client uses (to record or replay traffic). */
  fetch?: typeof fetch;
  /** Default `think` flag; a call's own `think` wins. Unset: the model's default. */
  think?: boolean;
  /** Default temperature and output cap, overridden per call. */
  temperature?: number;
  maxOutputTokens?: number;
  /** Abort a call that has not answered after this many milliseconds (default 120,000: `timeout_ms`). */
  timeoutMs?: number;
  /** Extra headers (a reverse proxy's auth, …). */
  headers?: Record<string, string>;
  /** Where `OLLAMA_HOST` is read from (default `process.env`). */
  env?: Environment;
}

/** A {@link LanguageModel} served by Ollama's `/api/chat` through the official `ollama` client. */
export function createOllama(config: OllamaConfig): LanguageModel {
  const endpoint = ollamaEndpoint(config);
  const baseFetch = config.fetch ?? globalThis.fetch;
  return {
    specificationVersion: 'v1',
    provider: 'ollama',
    modelId: config.model,
    async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
      const deadline = startRequestDeadline(config.timeoutMs, options.signal);
      const signal = deadline.signal;
      // The client sends no signal on non-streaming calls, so each call gets a client whose fetch carries one.
      const client = new Ollama({
        host: endpoint.baseURL,
        fetch: (input, init) => baseFetch(input, { ...init, signal }),
        ...(config.headers ? { headers: config.headers } : {}),
      });
      const think = options.think ?? config.think;
      const temperature = options.temperature ?? config.temperature;
      const maxOutputTokens = options.maxOutputTokens ?? config.maxOutputTokens;
      const tools = toOllamaTools(options.tools);
      let response: Awaited<ReturnType<typeof client.chat>>;
      try {
        response = await client.chat({
          model: config.model,
          messages: toOllamaMessages(options),
          stream: false,
          ...(tools ? { tools } : {}),
          ...(think === undefined ? {} : { think }),
          ...(options.responseFormat ? { format: options.responseFormat.schema } : {}),
          ...(temperature === undefined && maxOutputTokens === undefined
            ? {}
            : {
                options: {
                  ...(temperature === undefined ? {} : { temperature }),
                  ...(maxOutputTokens === undefined ? {} : { num_predict: maxOutputTokens }),
                },
              }),
        });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (deadline.expired()) throw requestTimeoutError(endpoint, deadline.timeoutMs, error);
        throw toProviderError(error, endpoint, httpFailure(error));
      }
      const assistantTurn = options.messages.filter((message) => message.role === 'assistant').length + 1;
      return fromOllamaResponse(response, assistantTurn);
    },
  };
}

function httpFailure(error: unknown): { status: number; message: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as { name?: unknown; status_code?: unknown; error?: unknown; message?: unknown };
  if (record.name !== 'ResponseError' || typeof record.status_code !== 'number') return undefined;
  return { status: record.status_code, message: String(record.error ?? record.message) };
}
