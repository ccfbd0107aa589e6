/**
 * The OpenAI-compatible provider, as `llm-scratchpad-runtime/openai`: a {@link LanguageModel} over the Chat
 * Completions API (OpenAI, or any server that speaks it) through the official `openai` client. Importing this
 * entry point loads that client and no other provider SDK.
 */
export type { LanguageModel } from './model/language-model.js';
export {
  createOpenAICompatible,
  DEFAULT_OPENAI_BASE_URL,
  type OpenAICompatibleConfig,
} from './providers/openai-compatible-model.js';
