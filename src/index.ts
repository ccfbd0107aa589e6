/**
 * llm-scratchpad: keep what does not fit in an LLM's context outside it, without losing it.
 *
 * The root export is the service, its context-management parts (offload, previews, compaction, notes,
 * references, tokens) and the in-memory store. Backends, tools, MCP, the runtime and the test kit have their own
 * subpath exports (`llm-scratchpad/sqlite`, `/fs`, `/postgres`, `/memory`, `/tools`, `/mcp`, `/runtime`,
 * `/test`). Every export is listed here on purpose: a new one is a deliberate diff of this file and of the pins in
 * `test/public-api.test.ts`.
 */
// The declarations use Node's types (Buffer, streams): a user's type-check loads them from @types/node, which
// TypeScript 6 includes only when a file or the `types` option asks for it.
/// <reference types="node" preserve="true" />
// biome-ignore-all assist/source/organizeImports: one export per statement, each with its TSDoc, in reading order

// ── The service ──────────────────────────────────────────────────────────────────────────────────────────────

/** Creates the service over a driver: `createScratchpad({ driver: await openStore('sqlite:./scratch.db') })`. */
export { createScratchpad } from './service/scratchpad.js';
/** The service: write, read (slices), grep, search, edit, update, lease, list, delete and gc, per session. */
export { Scratchpad } from './service/scratchpad.js';
/** The service bound to one session (and optionally an agent or a read-only prefix view): `scratchpad.session(id)`. */
export { SessionScratchpad } from './service/session-scratchpad.js';
/** The metadata key a lease is kept under in the entry's own record. */
export { LEASE_KEY } from './service/leases.js';
/** Options and results of the service. */
export type { ScratchpadConfig } from './service/scratchpad-config.js';
export type { SessionOptions, SessionViewOptions } from './service/session-scratchpad.js';
export type { Lease } from './service/leases.js';
export type { ContentInput } from './service/writing/content-input.js';
export type { GrepMatch, GrepOptions } from './service/grep/grep-types.js';
export type { RedactionConfig } from './service/redaction-config.js';
export type {
  EditOptions,
  EditResult,
  EntryRef,
  GcResult,
  GrepResult,
  ListOptions,
  ListOrder,
  ReadOptions,
  ReadResult,
  SearchHit,
  SearchResult,
  UpdateOptions,
  WriteOptions,
  WriteResult,
} from './service/types.js';

// ── Entries, names, errors ───────────────────────────────────────────────────────────────────────────────────

/** The size content is cut into (256 KiB): a slice read touches only the chunks that hold its ends. */
export { DEFAULT_CHUNK_SIZE } from './core/chunk.js';
/** True when a string is a valid entry or session name ({@link NAME_RULE}). */
export { isValidName } from './core/names.js';
/** The name rule in words, as error messages state it. */
export { NAME_RULE } from './core/names.js';
/** The one error type: a `code`, a `category`, a `hint` and `details` (codes in docs/errors.md). */
export { ScratchpadError } from './core/errors.js';
/** The one presentation of an error for a person or a model: `Error (CODE): message hint`. */
export { formatError } from './core/format-error.js';
/** An error as data: `{ ok: false, error: CODE, message, hint }`. */
export { errorPayload } from './core/format-error.js';
/** `formatError` for a `ScratchpadError`, `Error: message` for anything else: one shape on every surface. */
export { formatUnknownError } from './core/format-error.js';
/** Declares the error codes a package or layer owns, with their categories: `codes.error(CODE, message)`. */
export { defineErrorCodes, type ErrorCodeCategories, type LayerErrorCodes } from './core/errors.js';
/** What a `gc` did, in lines for people: what it removed, what it freed, and what a later `gc` frees. */
export { describeGc } from './service/describe-gc.js';
/** Types of errors, entries, chunks and slices. */
export type {
  ErrorCategory,
  LayerErrorOptions,
  ScratchpadErrorCode,
  ScratchpadErrorOptions,
} from './core/errors.js';
export type { ErrorPayload } from './core/format-error.js';
export type { Entry, EntryKind, EntryRecord, SessionInfo } from './core/entry.js';
export type { Chunk, ChunkAxis, ChunkInfo } from './core/chunk.js';
export type { JsonObject, JsonValue } from './core/json.js';
export type { SliceLocation } from './core/location.js';
export type { ReadSlice } from './core/slice.js';

// ── Stores ───────────────────────────────────────────────────────────────────────────────────────────────────

/** Opens a store from a URL (`sqlite:PATH`, `fs:DIR`, `postgres://…`, `memory:`), importing its backend on demand. */
export { openStore } from './stores/open-store.js';
/** Where the default SQLite file lives: `$XDG_DATA_HOME/scratchpad/scratchpad.db`. */
export { defaultDatabasePath } from './stores/open-store.js';
/** Creates the in-memory store (the reference driver; nothing persisted). */
export { createMemoryDriver } from './stores/memory/index.js';
/** The in-memory store's driver class. */
export { MemoryDriver } from './stores/memory/index.js';
/** The driver spec a backend implements (`runStoreContract` in `llm-scratchpad/test` checks one). */
export type {
  ChunkInFile,
  ChunkInPostgres,
  ChunkSource,
  CommitRequest,
  CommitResult,
  ContentSink,
  DriverSearchHit,
  DriverSearchRequest,
  DriverSearchResult,
  IndexingProgress,
  IndexSessionOptions,
  ListPosition,
  ListQuery,
  StoreDriver,
  StoreTotals,
  SweepResult,
} from './stores/driver.js';

// ── Secret redaction ─────────────────────────────────────────────────────────────────────────────────────────

/** Creates a redactor over the built-in secret patterns and your own (RE2). */
export { createRedactor } from './core/redaction/redactor.js';
/** The redactor that changes nothing. */
export { NO_REDACTION } from './core/redaction/redactor.js';
/** The secret patterns every redactor starts from. */
export { BUILTIN_SECRET_PATTERNS } from './core/redaction/secret-patterns.js';
/** Redaction types. */
export type { RedactionResult, Redactor, RedactorOptions } from './core/redaction/redactor.js';
export type { SecretPattern } from './core/redaction/secret-patterns.js';

// ── Offloading large results ─────────────────────────────────────────────────────────────────────────────────

/** Creates the policy that decides which results are stored whole and how their observation looks. */
export { createOffloadPolicy } from './context/offload/offload-policy.js';
/** The scratchpad's own tools (every preset's names), whose results are never offloaded; `exempt` adds to them. */
export { DEFAULT_EXEMPT_TOOLS } from './context/offload/offload-policy.js';
/** Creates the offloader: stores a large result under `<tool>_<n>` and returns its observation. */
export { createOffloader } from './context/offload/offloader.js';
/** Creates the cache of model-written summaries, by content hash, for the policy's `summarize`. */
export { createSummaryCache } from './context/offload/summary-preview.js';
/** Offload types. */
export type {
  ObservationFormat,
  OffloadPolicy,
  OffloadPolicyOptions,
  SizeMeasure,
  ToolOffloadRule,
} from './context/offload/offload-policy.js';
export type {
  DescribeStoredRequest,
  InlineReason,
  Offloader,
  OffloaderConfig,
  OffloadOutcome,
  OffloadRequest,
  StreamOffloadRequest,
} from './context/offload/offloader.js';
export type { ObservationInput, RenderedObservation } from './context/offload/observation-input.js';
export type { OffloadContent } from './context/offload/offload-content.js';
export type {
  SummarizeOptions,
  SummarizeRequest,
  Summarizer,
  SummaryCache,
  SummaryOutcome,
} from './context/offload/summary-preview.js';

// ── Previews ─────────────────────────────────────────────────────────────────────────────────────────────────

/** Builds a preview by name (`salient`, `head-tail`, `head`, `first-last-lines`, `json-structure`, `binary`). */
export { buildPreview } from './context/previews/preview-registry.js';
/** The default observation's preview: what the output is, what stands out, and exact read calls. */
export { salientPreview } from './context/previews/salient-preview.js';
/** The first and last characters of the output. */
export { headTailPreview } from './context/previews/head-tail-preview.js';
/** The first characters of the output. */
export { headPreview } from './context/previews/head-preview.js';
/** The first and last lines of the output. */
export { firstLastLinesPreview } from './context/previews/first-last-lines-preview.js';
/** The structure of a JSON output: key paths with types, counts and an example item. */
export { jsonStructurePreview } from './context/previews/json-structure-preview.js';
/** Seed 000's note for binary content: `[BINARY: N bytes, sha256=HEX]`. */
export { binaryPreview } from './context/previews/binary-preview.js';
/** Preview types. */
export type { FirstLastLinesPreviewOptions } from './context/previews/first-last-lines-preview.js';
export type { HeadPreviewOptions } from './context/previews/head-preview.js';
export type { HeadTailPreviewOptions } from './context/previews/head-tail-preview.js';
export type { JsonStructurePreviewOptions } from './context/previews/json-structure-preview.js';
export type { SalientPreviewOptions } from './context/previews/salient-preview.js';
export type {
  PreviewBuilder,
  PreviewContext,
  PreviewInput,
  PreviewName,
  PreviewRead,
  PreviewStep,
  PreviewText,
} from './context/previews/preview-builder.js';

// ── Compaction ───────────────────────────────────────────────────────────────────────────────────────────────

/** Masks old tool results of OpenAI, Anthropic or AI SDK messages, storing each and leaving a readable stub. */
export { compactMessages } from './context/compaction/compact-messages.js';
/** True when a tool result is a stub left by {@link compactMessages}. */
export { isMaskedStub } from './context/compaction/masked-stub.js';
/** The original tool result from a masked entry's text and its `storedAs` form. */
export {
  type MessageShape,
  rebuildMaskedResult,
  type StoredResult,
  type StoredResultForm,
} from './context/compaction/stored-result.js';
/** Compaction types. */
export type {
  CompactMessagesOptions,
  CompactMessagesResult,
  MaskedToolResult,
} from './context/compaction/compact-messages.js';

// ── Session notes (seed 001) ─────────────────────────────────────────────────────────────────────────────────

/** Creates the session notes kept in the pinned entry {@link NOTES_ENTRY}, token-budgeted. */
export { createSessionNotes } from './context/notes/session-notes.js';
/** The session notes class. */
export { SessionNotes } from './context/notes/session-notes.js';
/** The entry the notes live in: `_session.notes`. */
export { NOTES_ENTRY } from './context/notes/session-notes.js';
/** The notes' default token budget. */
export { DEFAULT_NOTES_MAX_TOKENS } from './context/notes/notes-config.js';
/** A user message's text with the notes block (and steer text) in front; pure. */
export { injectNotes } from './context/notes/inject-notes.js';
/** Injects the notes into the newest user message of a conversation only, so the prompt prefix stays cache-stable. */
export { injectIntoLatestUserMessage } from './context/notes/inject-into-latest-user-message.js';
/** Creates the JSONL transcript the notes are mirrored in. */
export { createSessionTranscript } from './context/notes/session-transcript.js';
/** The session transcript class. */
export { SessionTranscript } from './context/notes/session-transcript.js';
/** Notes types. */
export type { ChatMessageLike } from './context/notes/inject-into-latest-user-message.js';
export type { InjectNotesOptions } from './context/notes/inject-notes.js';
export type { NotesConfig } from './context/notes/notes-config.js';
export type {
  NotesMode,
  NotesRestoreResult,
  NotesUpdateResult,
  SessionNotesConfig,
} from './context/notes/session-notes.js';
export type { CustomEntry, SessionTranscriptConfig } from './context/notes/session-transcript.js';

// ── References ───────────────────────────────────────────────────────────────────────────────────────────────

/** Resolves `{{stepN.field}}` and `{{scratchpad:NAME}}` in tool arguments from the full stored values. */
export { resolveReferences } from './context/references/resolve-references.js';
/** True when a value (deeply) contains a `{{…}}` reference. */
export { containsReference } from './context/references/resolve-references.js';
/** Reference types. */
export type {
  ResolvedReferences,
  ResolveReferencesOptions,
} from './context/references/resolve-references.js';
export type { StepRecord, StepValue } from './context/references/step-values.js';

// ── Tokens ───────────────────────────────────────────────────────────────────────────────────────────────────

/** Loads the one token counter (o200k_base) on first use, once per process. */
export { loadTokenCounter } from './context/tokens/token-counter.js';
/** Tokens in a text (o200k_base), in linear time without blocking the event loop. */
export { countTokens } from './context/tokens/token-counter.js';
/** Loads a tokenizer by name (`o200k`, `cl100k`) or wraps your counting function. */
export { loadTokenizer } from './context/tokens/named-tokenizers.js';
/** The 4-characters-per-token estimate. */
export { estimateTokens } from './context/tokens/estimate-tokens.js';
/** The longest prefix of a text that fits a token budget, counted with the function you give. */
export { truncateToTokens } from './context/tokens/truncate-to-tokens.js';
/** Token types. */
export type { CountTokens } from './context/tokens/estimate-tokens.js';
export type { Tokenizer, TokenizerName, TokenizerSpec } from './context/tokens/named-tokenizers.js';
export type { TokenCounter } from './context/tokens/token-counter.js';
