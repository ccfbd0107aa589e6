/**
 * The Anthropic provider, as `llm-scratchpad-runtime/anthropic`: a {@link LanguageModel} over the Messages API
 * through the official `@anthropic-ai/sdk` client. Importing this entry point loads that client and no other
 * provider SDK.
 */
export type { LanguageModel } from './model/language-model.js';
export {
  type AnthropicConfig,
  createAnthropic,
  DEFAULT_ANTHROPIC_BASE_URL,
  DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS,
} from './providers/anthropic-model.js';
