/** Language-model providers: one factory per wire protocol, each on its official client with an injectable `fetch`. */
export {
  type AnthropicConfig,
  createAnthropic,
  DEFAULT_ANTHROPIC_BASE_URL,
  DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS,
} from './anthropic-model.js';
export { LOCAL_API_KEY } from './api-key.js';
export { isLocalHost } from './local-host.js';
export { createOllama, DEFAULT_OLLAMA_HOST, normalizeOllamaHost, type OllamaConfig } from './ollama-model.js';
export {
  createOpenAICompatible,
  DEFAULT_OPENAI_BASE_URL,
  type OpenAICompatibleConfig,
} from './openai-compatible-model.js';
export {
  connectionFailureReason,
  type ProviderEndpoint,
  requestTimeoutError,
  toProviderError,
} from './provider-error.js';
export {
  DEFAULT_PROVIDER_TIMEOUT_MS,
  type RequestDeadline,
  startRequestDeadline,
} from './request-deadline.js';
