import type { Entry } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { TOOL_NAMES } from '../../core/tool-names.js';
import type { SessionScratchpad } from '../../service/scratchpad.js';
import { formatNotesBlock } from '../notes/inject-notes.js';
import { findDuplicateEntry } from '../offload/duplicate-entry.js';
import { EntryNamer } from '../offload/entry-namer.js';
import { toOffloadContent } from '../offload/offload-content.js';
import { type CountTokens, estimateTokens } from '../tokens/estimate-tokens.js';
import { loadTokenizer, type TokenizerName } from '../tokens/named-tokenizers.js';
import { isMaskedStub, renderMaskedStub } from './masked-stub.js';
import { conversationTokens } from './message-tokens.js';
import type { StoredResultForm } from './stored-result.js';
import { findToolResults, replaceToolResult, type ToolResultSlot } from './tool-result-slots.js';

/** Options of {@link compactMessages}. */
export interface CompactMessagesOptions {
  /** Where masked results are stored (a result already stored there, byte for byte, is named, not stored again). */
  session: SessionScratchpad;
  /** The newest this many tool results stay whole (default 3; the newest one always does). */
  keepRecent?: number;
  /** And only while the kept results add up to at most this many tokens (default: no limit). */
  keepTokens?: number;
  /** Compact only when the whole conversation holds more than this many tokens (default: whenever it can). */
  trigger?: number;
  /**
   * Rewrite the history only when that clears at least this many tokens: masking then happens in batches, and
   * between batches the request's prefix stays byte-identical, so the provider's prompt cache keeps hitting. Given
   * alone (without `carriedRatio` or `breakEven`), it is the whole rule: 0 masks each result as soon as it leaves the
   * kept window (a cache-breaking rewrite every step).
   */
  clearAtLeast?: number;
  /**
   * Rewrite the history only when it pays for itself under prompt caching: the tokens it clears, times the requests
   * still expected, reach this multiple of the tokens that stay (which the provider writes to its cache again after a
   * rewrite). Each later request reads the cleared tokens at the cache-read price no more, and a rewrite writes the
   * conversation at the cache-write price; 12.5 (the default) is Anthropic's write price over its read price
   * (1.25x / 0.1x of the uncached input price). The requests still expected are estimated as the requests so far (the
   * assistant messages) plus 5: the longer a conversation has gone on, the longer it is expected to go on. A result
   * that clears more than 12.5 / 6 (about 2.1) times what stays is masked at the next request whatever the
   * conversation's age; smaller ones wait until together they pay. The default rule unless `clearAtLeast` or
   * `carriedRatio` is given (0 turns it off).
   * On the 101 SWE-agent dev replays of `npm run bench:context` (keepRecent 1) it keeps 0.266 of the all-inline
   * context at 2.9 rewrites per trajectory, about what `carriedRatio` gives at as many rewrites (see
   * docs/context-management.md).
   */
  breakEven?: number;
  /**
   * Rewrite the history only when the tokens it would clear, each counted once per request that has carried it since
   * it could have been masked (the assistant messages after it), add up to at least this multiple of the tokens that
   * stay (0, the default, turns the rule off; the default rule before `breakEven` was 2).
   */
  carriedRatio?: number;
  /** Tools whose results are never masked (added to the notes tool, `session.scratchpad`, which always is). */
  exclude?: Iterable<string>;
  /** Counts tokens: `o200k` or `cl100k` (exact), or a function (default {@link estimateTokens}, 4 characters a token). */
  countTokens?: CountTokens | TokenizerName;
  /** The read tool the stub names (default `scratchpad_read`). */
  readTool?: string;
  /** Lifetime of the entries masking stores: milliseconds, or `null` (default) to keep them until deleted. */
  ttlMs?: number | null;
  /** The turn recorded on stored entries. */
  turn?: string;
}

/** One result masked by a call. */
export interface MaskedToolResult {
  messageIndex: number;
  callId: string;
  tool: string;
  entry: Entry;
  /** Whether the entry was written by this call (false: the same bytes were already stored). */
  stored: boolean;
  /** Tokens of the result, and of the stub that replaced it. */
  tokens: number;
  stubTokens: number;
}

/** What {@link compactMessages} did. */
export interface CompactMessagesResult<Message> {
  /** The conversation to send: unchanged messages are the caller's objects; changed ones are copies. */
  messages: Message[];
  /** Whether any message changed: each rewrite invalidates the prompt cache from the first changed message on. */
  rewritten: boolean;
  masked: MaskedToolResult[];
  /** Tokens of the conversation before and after (the counter's count of each message's JSON). */
  tokensBefore: number;
  tokensAfter: number;
  /** Why nothing was masked, when nothing was. */
  skipped?:
    | 'nothing-eligible'
    | 'below-trigger'
    | 'below-clear-at-least'
    | 'below-carried-ratio'
    | 'below-break-even';
}

const DEFAULTS = { keepRecent: 3, clearAtLeast: 0, breakEven: 12.5, readTool: 'scratchpad_read' } as const;
/** Requests expected after the ones so far, added to their count, in the `breakEven` rule. */
const EXTRA_EXPECTED_REQUESTS = 5;
const NOTES_HEADER = formatNotesBlock('x').split('\n')[0] as string;
const MAX_SOURCE_CHARS = 200;

/**
 * Masks old tool results recoverably: each result older than the kept window is stored whole in the session (unless
 * those bytes already are) and replaced by a stub that names the entry and the call that reads it back, so nothing is
 * lost. Works on OpenAI chat completions messages, Anthropic messages and AI SDK `ModelMessage`s (see
 * `tool-result-slots.ts`), even mixed. It never touches anything but tool results: not the system prompt, not the
 * notes block, not the newest user message (Anthropic tool results in it included), and never the newest result.
 *
 * Call it before each request with the history you kept, and keep what it returns: a stub is recognized on the next
 * call and left as it is, so masked messages stay byte-identical from then on.
 *
 * ```ts
 * const { messages: next } = await compactMessages(messages, { session, keepRecent: 3 });
 * messages = next;
 * await client.chat.completions.create({ model, messages });
 * ```
 */
export async function compactMessages<Message>(
  messages: readonly Message[],
  options: CompactMessagesOptions,
): Promise<CompactMessagesResult<Message>> {
  if (!Array.isArray(messages)) {
    throw new ScratchpadError('INVALID_ARGUMENT', 'compactMessages needs an array of messages.', {
      hint: 'Pass the conversation as the array you send to the provider.',
    });
  }
  const settings = resolveOptions(options);
  if (typeof options.countTokens === 'string')
    settings.countTokens = (await loadTokenizer(options.countTokens)).count;
  const count = settings.countTokens;
  const tokensBefore = conversationTokens(messages, count);
  const unchanged = (skipped: CompactMessagesResult<Message>['skipped']) => ({
    messages: [...messages],
    rewritten: false,
    masked: [],
    tokensBefore,
    tokensAfter: tokensBefore,
    ...(skipped ? { skipped } : {}),
  });
  const eligible = eligibleResults(messages, settings);
  if (eligible.length === 0) return unchanged('nothing-eligible');
  if (settings.trigger !== undefined && tokensBefore <= settings.trigger) return unchanged('below-trigger');
  const clearable = eligible.reduce((sum, item) => sum + item.tokens - item.stubTokens, 0);
  if (clearable < settings.clearAtLeast) return unchanged('below-clear-at-least');
  if (settings.carriedRatio > 0) {
    const carried = carriedTokens(messages, eligible);
    if (carried < settings.carriedRatio * (tokensBefore - clearable)) return unchanged('below-carried-ratio');
  }
  if (settings.breakEven > 0) {
    const expectedRequests = countAssistants(messages) + EXTRA_EXPECTED_REQUESTS;
    if (clearable * expectedRequests < settings.breakEven * (tokensBefore - clearable))
      return unchanged('below-break-even');
  }

  const namer = new EntryNamer(settings.session);
  const copy = [...messages];
  const masked: MaskedToolResult[] = [];
  for (const { slot, tokens } of eligible) {
    const { entry, stored } = await storeResult(namer, settings, slot);
    const stub = renderMaskedStub(slot.tool, entry, settings.readTool, slot.form);
    copy[slot.messageIndex] = replaceToolResult(copy[slot.messageIndex] as Message, slot, stub);
    masked.push({
      messageIndex: slot.messageIndex,
      callId: slot.callId,
      tool: slot.tool,
      entry,
      stored,
      tokens,
      stubTokens: count(stub),
    });
  }
  return {
    messages: copy,
    rewritten: true,
    masked,
    tokensBefore,
    tokensAfter: conversationTokens(copy, count),
  };
}

type Settings = Required<
  Omit<CompactMessagesOptions, 'keepTokens' | 'trigger' | 'turn' | 'exclude' | 'countTokens'>
> & {
  countTokens: CountTokens;
  keepTokens: number;
  trigger: number | undefined;
  turn: string | null;
  exclude: ReadonlySet<string>;
};

interface Eligible {
  slot: ToolResultSlot;
  tokens: number;
  stubTokens: number;
}

/** The tool results outside the kept window that may be masked and would shrink, oldest first. */
function eligibleResults(messages: readonly unknown[], settings: Settings): Eligible[] {
  const slots = findToolResults(messages);
  const newestUser = messages.findLastIndex(
    (message) =>
      typeof message === 'object' && message !== null && (message as { role?: unknown }).role === 'user',
  );
  const count = settings.countTokens;
  const eligible: Eligible[] = [];
  let keptTokens = 0;
  for (let fromNewest = 0; fromNewest < slots.length; fromNewest++) {
    const slot = slots[slots.length - 1 - fromNewest] as ToolResultSlot;
    if (isMaskedStub(slot.text)) continue;
    const tokens = count(slot.text);
    keptTokens += tokens;
    const kept = fromNewest === 0 || (fromNewest < settings.keepRecent && keptTokens <= settings.keepTokens);
    if (kept || !maskable(slot, newestUser, settings)) continue;
    const stubTokens = count(
      renderMaskedStub(slot.tool, provisionalEntry(slot.text, settings.ttlMs), settings.readTool, slot.form),
    );
    if (tokens > stubTokens) eligible.push({ slot, tokens, stubTokens });
  }
  return eligible.reverse();
}

/**
 * The tokens the eligible results would clear, each weighted by the requests that have carried it since it could have
 * been masked: the assistant messages after it (at least 1).
 */
function carriedTokens(messages: readonly unknown[], eligible: readonly Eligible[]): number {
  const assistantsAfter = new Array<number>(messages.length + 1).fill(0);
  for (let index = messages.length - 1; index >= 0; index--) {
    assistantsAfter[index] = (assistantsAfter[index + 1] as number) + (isAssistant(messages[index]) ? 1 : 0);
  }
  let carried = 0;
  for (const { slot, tokens, stubTokens } of eligible) {
    const requests = Math.max(1, assistantsAfter[slot.messageIndex + 1] as number);
    carried += (tokens - stubTokens) * requests;
  }
  return carried;
}

function countAssistants(messages: readonly unknown[]): number {
  let count = 0;
  for (const message of messages) if (isAssistant(message)) count++;
  return count;
}

function isAssistant(message: unknown): boolean {
  return (
    typeof message === 'object' && message !== null && (message as { role?: unknown }).role === 'assistant'
  );
}

function maskable(slot: ToolResultSlot, newestUser: number, settings: Settings): boolean {
  return (
    slot.text.length > 0 &&
    slot.messageIndex !== newestUser &&
    !settings.exclude.has(slot.tool) &&
    !slot.text.includes(NOTES_HEADER)
  );
}

/** The entry that holds the result's exact bytes: an existing one of this tool, or a new `<tool>_<n>`. */
async function storeResult(
  namer: EntryNamer,
  settings: Settings,
  slot: ToolResultSlot,
): Promise<{ entry: Entry; stored: boolean }> {
  const content = toOffloadContent(slot.text);
  const source = slot.tool.slice(0, MAX_SOURCE_CHARS);
  if (content) {
    const existing = await findDuplicateEntry(settings.session, {
      tool: slot.tool,
      source,
      turn: settings.turn,
      kind: content.kind,
      bytes: content.bytes,
    });
    if (existing && holdsForm(existing, slot.form)) return { entry: existing, stored: false };
  }
  const written = await namer.create(slot.tool, slot.text, {
    kind: 'text',
    source,
    turn: settings.turn,
    metadata: {
      maskedToolResult: true,
      callId: slot.callId.slice(0, MAX_SOURCE_CHARS),
      storedAs: slot.form,
    },
    ttlMs: settings.ttlMs,
    // A tool result, like an offloaded one: a size cap may evict it, never what someone wrote.
    evictable: true,
  });
  return { entry: written.entry, stored: true };
}

/**
 * Whether an entry with the same bytes holds them in the same form: a masked entry says its form (`storedAs`); any
 * other entry (an offloaded result, one written by hand) holds plain text.
 */
function holdsForm(entry: Entry, form: StoredResultForm): boolean {
  const storedAs = entry.metadata.storedAs;
  return (typeof storedAs === 'string' ? storedAs : 'text') === form;
}

/**
 * An entry like the one that will hold `text`, to measure its stub before storing: the longest name a stub gives, the
 * text's size (lines counted as at least the store counts them, so the stub is never longer than measured) and a
 * lifetime when the entry will have one.
 */
function provisionalEntry(text: string, ttlMs: number | null): Entry {
  let newlines = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) newlines++;
  return {
    ...PROVISIONAL_ENTRY,
    chars: text.length,
    lines: newlines + 1,
    expiresAt: ttlMs === null ? null : 9_999_999_999_999,
  };
}

const PROVISIONAL_ENTRY: Entry = Object.freeze({
  id: '0'.repeat(16),
  name: 'tool_output_name_999',
  session: '',
  turn: null,
  step: null,
  source: null,
  kind: 'text',
  mediaType: 'text/plain',
  bytes: 0,
  chars: 0,
  lines: 0,
  sha256: '',
  createdAt: 0,
  updatedAt: 0,
  expiresAt: null,
  pinned: false,
  evictable: true,
  version: 1,
  metadata: {},
});

function resolveOptions(options: CompactMessagesOptions): Settings {
  if (typeof options !== 'object' || options === null || typeof options.session?.write !== 'function') {
    throw invalid(
      'compactMessages needs options with a session.',
      'Pass { session: scratchpad.session(id) }.',
    );
  }
  const keepRecent = options.keepRecent ?? DEFAULTS.keepRecent;
  if (!(keepRecent === Number.POSITIVE_INFINITY || (Number.isSafeInteger(keepRecent) && keepRecent >= 1))) {
    throw invalid(
      `keepRecent must be an integer >= 1, got ${String(keepRecent)}.`,
      'Use 3 to keep the last three.',
    );
  }
  for (const [key, value] of [
    ['keepTokens', options.keepTokens],
    ['trigger', options.trigger],
    ['clearAtLeast', options.clearAtLeast],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      throw invalid(
        `${key} must be an integer >= 0 (tokens), got ${String(value)}.`,
        'Give a number of tokens.',
      );
    }
  }
  const carriedRatio = options.carriedRatio ?? 0;
  const ruleGiven = options.clearAtLeast !== undefined || options.carriedRatio !== undefined;
  const breakEven = options.breakEven ?? (ruleGiven ? 0 : DEFAULTS.breakEven);
  for (const [key, value] of [
    ['carriedRatio', carriedRatio],
    ['breakEven', breakEven],
  ] as const) {
    if (!(Number.isFinite(value) && value >= 0)) {
      throw invalid(
        `${key} must be a finite number >= 0, got ${String(value)}.`,
        'Use 0 to turn the rule off.',
      );
    }
  }
  const ttlMs = options.ttlMs === undefined ? null : options.ttlMs;
  if (ttlMs !== null && !(Number.isFinite(ttlMs) && ttlMs > 0)) {
    throw invalid(
      `ttlMs must be a positive number of milliseconds or null, got ${String(ttlMs)}.`,
      'Use null.',
    );
  }
  const countTokens = options.countTokens ?? estimateTokens;
  if (typeof countTokens !== 'function' && countTokens !== 'o200k' && countTokens !== 'cl100k') {
    throw invalid('countTokens must be "o200k", "cl100k" or a function.', 'Pass (text) => number.');
  }
  return {
    session: options.session,
    keepRecent,
    keepTokens: options.keepTokens ?? Number.POSITIVE_INFINITY,
    trigger: options.trigger,
    clearAtLeast: options.clearAtLeast ?? DEFAULTS.clearAtLeast,
    carriedRatio,
    breakEven,
    exclude: new Set([TOOL_NAMES.notes, ...(options.exclude ?? [])]),
    countTokens: typeof countTokens === 'function' ? countTokens : estimateTokens,
    readTool: options.readTool ?? DEFAULTS.readTool,
    ttlMs,
    turn: options.turn ?? null,
  };
}

function invalid(message: string, hint: string): ScratchpadError {
  return new ScratchpadError('INVALID_ARGUMENT', message, { hint });
}
