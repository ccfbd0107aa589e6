import { ScratchpadError } from '../../core/errors.js';
import type { SessionScratchpad } from '../../service/scratchpad.js';
import { loadTokenCounter, type TokenCounter } from '../tokens/token-counter.js';
import { type InjectNotesOptions, injectNotes } from './inject-notes.js';
import { resolveNotesConfig } from './notes-config.js';
import {
  notesAppendRejectedMessage,
  notesClearedMessage,
  notesTruncatedMessage,
  notesUpdatedMessage,
} from './notes-messages.js';
import type { SessionTranscript } from './session-transcript.js';

/**
 * The store entry that holds a session's notes. Reserved: the leading `_` and the `.` keep it out of the way of
 * names people and agents pick (seed 003's keys cannot contain a dot). Pinned, no TTL.
 */
export const NOTES_ENTRY = '_session.notes';
/** The notes as they were before the last replace (so a replace, even with empty content, can be undone). */
export const NOTES_PREVIOUS_ENTRY = '_session.notes.previous';
/** The full content of the last replace that was truncated to the budget. */
export const NOTES_UNTRUNCATED_ENTRY = '_session.notes.untruncated';
/** The `customType` of the transcript entries that record each version of the notes (seed 001). */
export const NOTES_CUSTOM_TYPE = 'openclaw:scratchpad';

/** `replace` overwrites the notes; `append` adds to them on a new line. */
export type NotesMode = 'replace' | 'append';

/** Configuration of {@link SessionNotes}. */
export interface SessionNotesConfig {
  /** The session whose notes these are (they live in its store as {@link NOTES_ENTRY}). */
  session: SessionScratchpad;
  /** Token budget (o200k_base tokens, default 2000). */
  maxTokens?: number;
  /** The session JSONL transcript: each change is appended to it, and `restore()` reads it back. */
  transcript?: SessionTranscript;
}

/** What {@link SessionNotes.set} did. `rejected` changed nothing. */
export interface NotesUpdateResult {
  outcome: 'updated' | 'truncated' | 'cleared' | 'rejected';
  /** The acknowledgment for the model (seed 001's exact sentences for updated, truncated and rejected). */
  message: string;
  /** The notes now. */
  content: string;
  tokens: number;
  budget: number;
  /** The store version of the notes now (0: none stored). */
  version: number;
  /** `truncated`: tokens of the content as given. */
  originalTokens?: number;
  /** `rejected`: tokens of the content that was to be appended. */
  appendTokens?: number;
  /** Where the content this replace overwrote was kept. */
  previous?: { tokens: number; entry: string };
}

/** What {@link SessionNotes.restore} found. */
export interface NotesRestoreResult {
  content: string;
  version: number;
  /** `transcript`: the store had no (or older) notes and was initialized from the transcript. */
  source: 'store' | 'transcript' | 'none';
}

interface NotesState {
  id: string;
  version: number;
  content: string;
  updatedAt: number;
}

const NO_NOTES: NotesState = { id: '', version: 0, content: '', updatedAt: 0 };
const MAX_RETRIES = 5;

/**
 * Seed 001's session notes ("session scratchpad"): working state an agent keeps across context compaction,
 * stored in the session's store entry {@link NOTES_ENTRY} (so the CLI and MCP reach it too), recorded in the session
 * transcript when there is one, and prepended to each user message.
 *
 * Concurrency: every write is a compare-and-set on the entry's version. A replace is refused with
 * `VERSION_CONFLICT` when the notes changed since this object last showed them (`get`, `inject`, `restore`, or its
 * own writes), so one agent cannot silently overwrite what another wrote; the error carries the current content.
 * Appends retry on a race, since they keep what is there. Calls on one object run one at a time.
 */
export class SessionNotes {
  readonly session: SessionScratchpad;
  readonly maxTokens: number;
  readonly #transcript: SessionTranscript | undefined;
  /** The last version read from the store (the seed's in-memory Map, now a cache keyed by version). */
  #cache: NotesState | undefined;
  /** The version last shown to the caller: a replace based on an older one would lose someone's change. */
  #seen: NotesState | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(config: SessionNotesConfig) {
    this.session = config.session;
    this.maxTokens = resolveNotesConfig({ maxTokens: config.maxTokens }).maxTokens;
    this.#transcript = config.transcript;
  }

  /** The current notes (`''` when there are none). */
  get(): Promise<string> {
    return this.#serialized(async () => {
      const state = await this.#load();
      this.#seen = state;
      return state.content;
    });
  }

  /**
   * Replaces or appends to the notes within the token budget. Replace: content over budget is truncated (by tokens,
   * between characters; the full text is kept in {@link NOTES_UNTRUNCATED_ENTRY}); empty or blank content clears the
   * notes, keeping the old ones in {@link NOTES_PREVIOUS_ENTRY}. Append: rejected, with nothing changed, when the
   * result would be over budget. `ifVersion` overrides the "last seen" check of a replace.
   */
  set(
    content: string,
    mode: NotesMode = 'replace',
    options: { ifVersion?: number } = {},
  ): Promise<NotesUpdateResult> {
    if (typeof content !== 'string') {
      return Promise.reject(
        new ScratchpadError('INVALID_ARGUMENT', 'The scratchpad content must be a string.', {
          hint: 'Pass the notes as text (use "" with mode "replace" to clear them).',
        }),
      );
    }
    if (mode !== 'replace' && mode !== 'append') {
      return Promise.reject(
        new ScratchpadError('INVALID_ARGUMENT', `Unknown scratchpad mode ${JSON.stringify(mode)}.`, {
          hint: 'Use "replace" to overwrite the notes or "append" to add to them.',
        }),
      );
    }
    return this.#serialized(async () => {
      const tokenizer = await loadTokenCounter();
      return mode === 'append'
        ? this.#append(content, tokenizer)
        : this.#replace(content, tokenizer, options.ifVersion);
    });
  }

  /** `message` with the current notes prepended in seed 001's block (see {@link injectNotes}). */
  async inject(message: string, options: InjectNotesOptions = {}): Promise<string> {
    return injectNotes(message, await this.get(), options);
  }

  /**
   * Loads the notes on session resume. The store is the source of truth; when it has no notes, or older ones than
   * the last {@link NOTES_CUSTOM_TYPE} entry of the transcript (a memory store after a restart, another machine),
   * the store is initialized from the transcript (older store notes are kept in {@link NOTES_PREVIOUS_ENTRY}).
   */
  restore(): Promise<NotesRestoreResult> {
    return this.#serialized(async () => {
      const stored = await this.#load();
      const last = await this.#transcript?.lastCustomEntry(NOTES_CUSTOM_TYPE);
      const logged =
        typeof last?.data === 'string' ? { content: last.data, at: Date.parse(last.timestamp) } : undefined;
      if (
        logged &&
        logged.content !== stored.content &&
        (stored.version === 0 || logged.at > stored.updatedAt)
      ) {
        const tokenizer = await loadTokenCounter();
        if (stored.content.length > 0) await this.#keep(NOTES_PREVIOUS_ENTRY, stored.content);
        const restored = await this.#commit(logged.content, stored, await tokenizer.count(logged.content), {
          record: false,
        });
        if (restored) {
          this.#seen = restored;
          return { content: restored.content, version: restored.version, source: 'transcript' };
        }
      }
      const current = await this.#load();
      this.#seen = current;
      return {
        content: current.content,
        version: current.version,
        source: current.version > 0 ? 'store' : 'none',
      };
    });
  }

  /** The notes as they were before the last replace, if any. */
  async previous(): Promise<string | undefined> {
    if (!(await this.session.find(NOTES_PREVIOUS_ENTRY))) return undefined;
    return (await this.session.read(NOTES_PREVIOUS_ENTRY)).content;
  }

  async #replace(
    content: string,
    tokenizer: TokenCounter,
    ifVersion: number | undefined,
  ): Promise<NotesUpdateResult> {
    const current = await this.#load();
    const stale =
      ifVersion !== undefined
        ? current.version !== ifVersion
        : this.#seen !== undefined && !sameState(this.#seen, current);
    if (stale) throw await this.#conflict(current, tokenizer);
    const budget = this.maxTokens;
    const cleared = content.trim().length === 0;
    const originalTokens = cleared ? 0 : await tokenizer.count(content);
    const truncated = originalTokens > budget;
    const stored = cleared ? '' : truncated ? await tokenizer.truncate(content, budget) : content;
    const tokens = truncated ? await tokenizer.count(stored) : originalTokens;
    let previous: NotesUpdateResult['previous'];
    if (current.content.length > 0 && current.content !== stored) {
      await this.#keep(NOTES_PREVIOUS_ENTRY, current.content);
      previous = { tokens: await tokenizer.count(current.content), entry: NOTES_PREVIOUS_ENTRY };
    }
    if (truncated) await this.#keep(NOTES_UNTRUNCATED_ENTRY, content);
    let state = current;
    if (current.content !== stored) {
      const committed = await this.#commit(stored, current, tokens);
      if (!committed) throw await this.#conflict(await this.#load(), tokenizer);
      state = committed;
    }
    this.#seen = state;
    const message = cleared
      ? notesClearedMessage(budget, previous)
      : truncated
        ? notesTruncatedMessage(budget, originalTokens)
        : notesUpdatedMessage(tokens, budget);
    return {
      outcome: cleared ? 'cleared' : truncated ? 'truncated' : 'updated',
      message,
      content: state.content,
      tokens,
      budget,
      version: state.version,
      ...(truncated ? { originalTokens } : {}),
      ...(previous ? { previous } : {}),
    };
  }

  async #append(content: string, tokenizer: TokenCounter): Promise<NotesUpdateResult> {
    const budget = this.maxTokens;
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
      const current = await this.#load();
      const combined = joinNotes(current.content, content);
      const tokens = await tokenizer.count(combined);
      if (combined !== current.content && tokens > budget) {
        const currentTokens = await tokenizer.count(current.content);
        const appendTokens = await tokenizer.count(content);
        return {
          outcome: 'rejected',
          message: notesAppendRejectedMessage(budget, currentTokens, appendTokens),
          content: current.content,
          tokens: currentTokens,
          budget,
          version: current.version,
          appendTokens,
        };
      }
      const state = combined === current.content ? current : await this.#commit(combined, current, tokens);
      if (!state) continue;
      // Only what this caller had seen plus its own append counts as seen; a concurrent change it never saw
      // must still stop a later replace.
      if (this.#seen === undefined || sameState(this.#seen, current)) this.#seen = state;
      return {
        outcome: 'updated',
        message: notesUpdatedMessage(tokens, budget),
        content: state.content,
        tokens,
        budget,
        version: state.version,
      };
    }
    throw new ScratchpadError(
      'VERSION_CONFLICT',
      `The scratchpad kept changing while appending; gave up after ${MAX_RETRIES + 1} attempts.`,
      {
        hint: 'Another writer is updating the notes continuously; try the append again.',
      },
    );
  }

  /** Writes the notes if they are still at `current`'s version; `undefined` when someone else wrote first. */
  async #commit(
    content: string,
    current: NotesState,
    tokens: number,
    options: { record?: boolean } = {},
  ): Promise<NotesState | undefined> {
    let written: Awaited<ReturnType<SessionScratchpad['write']>>;
    try {
      written = await this.session.write(NOTES_ENTRY, content, {
        mode: 'replace',
        ifVersion: current.version,
        pinned: true,
        ttlMs: null,
        kind: 'text',
        mediaType: 'text/markdown; charset=utf-8',
        source: 'session.scratchpad',
        metadata: { tokens, encoding: 'o200k_base' },
      });
    } catch (error) {
      if (ScratchpadError.hasCode(error, 'VERSION_CONFLICT')) return undefined;
      throw error;
    }
    const state = {
      id: written.entry.id,
      version: written.entry.version,
      content,
      updatedAt: written.entry.updatedAt,
    };
    this.#cache = state;
    if (options.record !== false) await this.#record(content);
    return state;
  }

  async #record(content: string): Promise<void> {
    if (!this.#transcript) return;
    try {
      await this.#transcript.appendCustomEntry(NOTES_CUSTOM_TYPE, content);
    } catch (error) {
      throw new ScratchpadError(
        'STORE_UNAVAILABLE',
        `The notes were saved in the store but could not be appended to the transcript ${this.#transcript.path}: ${(error as Error).message}`,
        {
          hint: 'Check that the transcript file is writable; the store copy is intact and restore() will find it.',
          cause: error,
        },
      );
    }
  }

  /** Keeps a recovery copy (pinned, no TTL) under a reserved name. */
  async #keep(name: string, content: string): Promise<void> {
    await this.session.write(name, content, {
      mode: 'replace',
      pinned: true,
      ttlMs: null,
      kind: 'text',
      source: 'session.scratchpad',
    });
  }

  async #load(): Promise<NotesState> {
    const entry = await this.session.find(NOTES_ENTRY);
    if (!entry) return NO_NOTES;
    if (entry.kind !== 'text') {
      throw new ScratchpadError('NOT_TEXT', `The notes entry "${NOTES_ENTRY}" holds binary data, not text.`, {
        hint: `Delete "${NOTES_ENTRY}" (it is reserved for session notes), then write the notes again.`,
      });
    }
    if (this.#cache && sameState(this.#cache, entry)) return this.#cache;
    const read = await this.session.read(NOTES_ENTRY);
    this.#cache = {
      id: read.entry.id,
      version: read.entry.version,
      content: read.content,
      updatedAt: read.entry.updatedAt,
    };
    return this.#cache;
  }

  async #conflict(current: NotesState, tokenizer: TokenCounter): Promise<ScratchpadError> {
    this.#seen = current;
    const state =
      current.version === 0
        ? 'they are now empty'
        : `they are now at version ${current.version} (${await tokenizer.count(current.content)} tokens)`;
    return new ScratchpadError(
      'VERSION_CONFLICT',
      `The scratchpad changed since you last saw it (another agent or a person wrote it): ${state}. Current content:\n${current.content || '(empty)'}`,
      {
        hint: 'Merge your changes into the current content above and call session.scratchpad again, or add them with mode "append".',
        details: { name: NOTES_ENTRY, actual: current.version },
      },
    );
  }

  #serialized<T>(run: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(run);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}

/** Creates the notes of one session (see {@link SessionNotes}). */
export function createSessionNotes(config: SessionNotesConfig): SessionNotes {
  return new SessionNotes(config);
}

/** Appended content starts on a new line. */
function joinNotes(current: string, addition: string): string {
  if (addition.length === 0) return current;
  if (current.length === 0 || current.endsWith('\n')) return current + addition;
  return `${current}\n${addition}`;
}

function sameState(a: { id: string; version: number }, b: { id: string; version: number }): boolean {
  return a.id === b.id && a.version === b.version;
}
