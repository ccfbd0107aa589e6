/**
 * The Ollama provider, as `llm-scratchpad-runtime/ollama`: a {@link LanguageModel} over Ollama's `/api/chat`
 * through the official `ollama` client. Importing this entry point loads that client and no other provider SDK.
 */
export type { LanguageModel } from './model/language-model.js';
export {
  createOllama,
  DEFAULT_OLLAMA_HOST,
  type OllamaConfig,
} from './providers/ollama-model.js';
