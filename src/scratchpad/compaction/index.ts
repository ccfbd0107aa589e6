/** Recoverable masking of old tool results for OpenAI, Anthropic and AI SDK conversations. */
export {
  type CompactMessagesOptions,
  type CompactMessagesResult,
  compactMessages,
  type MaskedToolResult,
} from './compact-messages.js';
export { isMaskedStub } from './masked-stub.js';
