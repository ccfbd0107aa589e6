/**
 * agent-scratchpad: keep what does not fit in an LLM's context outside it, without losing it.
 *
 * The root export is the service and the pure core; backends, tools, MCP and the runtime have their own
 * subpath exports (`agent-scratchpad/sqlite`, `/fs`, `/postgres`, `/tools`, `/mcp`, `/runtime`, `/test`).
 */
export type { Chunk, ChunkAxis, ChunkInfo } from './core/chunk.js';
export { DEFAULT_CHUNK_SIZE } from './core/chunk.js';
export type { Entry, EntryKind, EntryRecord, SessionInfo } from './core/entry.js';
export { toEntry } from './core/entry.js';
export {
  type ErrorCategory,
  ScratchpadError,
  type ScratchpadErrorCode,
  type ScratchpadErrorOptions,
} from './core/errors.js';
export { formatBytes, formatCount } from './core/format.js';
export { type ErrorPayload, errorPayload, formatError } from './core/format-error.js';
export type { JsonObject, JsonValue } from './core/json.js';
export { describeLocation, type SliceLocation } from './core/location.js';
export { assertValidName, assertValidSession, isValidName, NAME_RULE, toNameFragment } from './core/names.js';
export { queryTerms } from './core/query-terms.js';
export {
  createRedactor,
  NO_REDACTION,
  type RedactionResult,
  type Redactor,
  type RedactorOptions,
  redactionMarker,
} from './core/redaction/redactor.js';
export { BUILTIN_SECRET_PATTERNS, type SecretPattern } from './core/redaction/secret-patterns.js';
export type { ReadSlice } from './core/slice.js';
export * from './scratchpad/compaction/index.js';
export type { GrepMatch, GrepOptions } from './scratchpad/grep/grep-scan.js';
export { LEASE_KEY, type Lease } from './scratchpad/leases.js';
export * from './scratchpad/notes/index.js';
export * from './scratchpad/offload/index.js';
export * from './scratchpad/previews/index.js';
export type { RedactionConfig } from './scratchpad/redaction-config.js';
export {
  containsReference,
  type ResolvedReferences,
  type ResolveReferencesOptions,
  resolveReferences,
} from './scratchpad/references/resolve-references.js';
export type { StepRecord, StepValue } from './scratchpad/references/step-values.js';
export {
  createScratchpad,
  newId,
  Scratchpad,
  type ScratchpadConfig,
  SessionScratchpad,
} from './scratchpad/scratchpad.js';
export type { SessionOptions, SessionViewOptions } from './scratchpad/session-scratchpad.js';
export { type CountTokens, estimateTokens } from './scratchpad/tokens/estimate-tokens.js';
export {
  loadTokenizer,
  type Tokenizer,
  type TokenizerName,
  type TokenizerSpec,
} from './scratchpad/tokens/named-tokenizers.js';
export {
  countTokens,
  loadTokenCounter,
  type TokenCounter,
} from './scratchpad/tokens/token-counter.js';
export { truncateToTokens } from './scratchpad/tokens/truncate-to-tokens.js';
export type * from './scratchpad/types.js';
export type { ContentInput } from './scratchpad/writing/content-input.js';
export type {
  CommitRequest,
  CommitResult,
  ContentSink,
  DriverSearchHit,
  DriverSearchRequest,
  DriverSearchResult,
  IndexingProgress,
  ListQuery,
  StoreDriver,
  StoreTotals,
} from './stores/driver.js';
export { createMemoryDriver, MemoryDriver } from './stores/memory/index.js';
export { configHome, dataHome, defaultDatabasePath, openStore } from './stores/open-store.js';
