import { randomBytes } from 'node:crypto';
import type { Entry } from '../core/entry.js';
import { ScratchpadError } from '../core/errors.js';
import type { ReadSlice } from '../core/slice.js';
import type { GrepOptions } from './grep/grep-types.js';
import { type Lease, validateHolder } from './leases.js';
import type { Scratchpad } from './scratchpad.js';
import type {
  EditOptions,
  EditResult,
  EntryRef,
  GrepResult,
  ListFilter,
  ListOptions,
  ListPage,
  ReadOptions,
  ReadResult,
  SearchResult,
  UpdateOptions,
  WriteOptions,
  WriteResult,
} from './types.js';
import type { ContentInput } from './writing/content-input.js';

/** Options of {@link Scratchpad.session}. */
export interface SessionOptions {
  /**
   * The agent this handle acts for: it holds the leases it takes, and its writes pass another agent's lease only
   * when it is the holder. Default: a new id per handle (`agent-` and 12 hex characters).
   */
  agent?: string;
}

/** Options of {@link SessionScratchpad.view}. */
export interface SessionViewOptions {
  /** Only entries whose names start with this are visible (and, when writable, writable). */
  prefix: string;
  /** Default `true`: writes, edits, updates, deletes and leases fail with `READ_ONLY`. */
  readOnly?: boolean;
}

/** A {@link Scratchpad} bound to one session: the same methods without the session argument. */
export class SessionScratchpad {
  readonly scratchpad: Scratchpad;
  readonly id: string;
  /** The agent this handle acts for (see {@link SessionOptions.agent}). */
  readonly agent: string;

  constructor(scratchpad: Scratchpad, session: string, options: SessionOptions = {}) {
    this.scratchpad = scratchpad;
    this.id = session;
    this.agent = options.agent ?? `agent-${randomBytes(6).toString('hex')}`;
    validateHolder(this.agent);
  }

  /**
   * Gives this handle's agent the right to change `name` for `ttlSeconds` (renew by leasing again); other
   * agents get `LEASED`. See {@link Scratchpad.lease}.
   */
  lease(name: string, options: { ttlSeconds: number }): Promise<Lease> {
    return this.scratchpad.lease(this.id, name, { ttlSeconds: options?.ttlSeconds, holder: this.agent });
  }
  /** Ends this agent's lease on `name`; `false` when it held none. */
  release(name: string): Promise<boolean> {
    return this.scratchpad.release(this.id, name, { holder: this.agent });
  }
  /**
   * A bounded window on this session for a subagent: only the entries under `prefix`, read-only by default. Hand
   * it to the child's tools as their session; it acts for its own agent (`<this agent>/view`).
   */
  view(options: SessionViewOptions): SessionScratchpad {
    return new SessionView(this, options);
  }

  write(name: string, content: ContentInput, options?: WriteOptions): Promise<WriteResult> {
    return this.scratchpad.write(this.id, name, content, { holder: this.agent, ...options });
  }
  read(ref: EntryRef, slice?: ReadSlice, options?: ReadOptions): Promise<ReadResult> {
    return this.scratchpad.read(this.id, ref, slice, options);
  }
  stream(ref: EntryRef, slice?: ReadSlice): ReturnType<Scratchpad['stream']> {
    return this.scratchpad.stream(this.id, ref, slice);
  }
  grep(ref: EntryRef, options: GrepOptions): Promise<GrepResult> {
    return this.scratchpad.grep(this.id, ref, options);
  }
  edit(ref: EntryRef, options: EditOptions): Promise<EditResult> {
    return this.scratchpad.edit(this.id, ref, { holder: this.agent, ...options });
  }
  update(ref: EntryRef, options: UpdateOptions): Promise<Entry> {
    return this.scratchpad.update(this.id, ref, { holder: this.agent, ...options });
  }
  delete(ref: EntryRef, options?: { ifVersion?: number }): Promise<Entry> {
    return this.scratchpad.delete(this.id, ref, { holder: this.agent, ...options });
  }
  get(ref: EntryRef): Promise<Entry> {
    return this.scratchpad.get(this.id, ref);
  }
  find(ref: EntryRef): Promise<Entry | undefined> {
    return this.scratchpad.find(this.id, ref);
  }
  /** One page of the session's live entries (see {@link Scratchpad.list}). */
  list(options?: ListOptions): Promise<ListPage> {
    return this.scratchpad.list(this.id, options);
  }
  /** Every live entry `filter` selects, a page at a time (see {@link Scratchpad.entries}). */
  async *entries(filter: ListFilter = {}): AsyncGenerator<Entry, void, undefined> {
    let cursor: string | undefined;
    do {
      const page: ListPage = await this.list({ ...filter, ...(cursor === undefined ? {} : { cursor }) });
      yield* page.entries;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
  listForTurn(turn: string): Promise<Entry[]> {
    return this.scratchpad.listForTurn(this.id, turn);
  }
  search(query: string, options?: { limit?: number }): Promise<SearchResult> {
    return this.scratchpad.search(this.id, query, options);
  }
}

/**
 * A bounded window on a session (see {@link SessionScratchpad.view}): entries outside `prefix` do not exist for it
 * (`ENTRY_NOT_FOUND`, and they are not listed or found); when read-only, every change is `READ_ONLY`. Kept in this
 * file because it extends {@link SessionScratchpad}, which creates it.
 */
class SessionView extends SessionScratchpad {
  readonly #prefix: string;
  readonly #readOnly: boolean;

  constructor(parent: SessionScratchpad, options: SessionViewOptions) {
    super(parent.scratchpad, parent.id, { agent: `${parent.agent}/view` });
    if (typeof options?.prefix !== 'string') {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        'A view needs a prefix (a string; "" for the whole session).',
        {
          hint: 'session.view({ prefix: "research/", readOnly: true })',
          details: { option: 'prefix' },
        },
      );
    }
    this.#prefix = options.prefix;
    this.#readOnly = options.readOnly !== false;
  }

  override write(name: string, content: ContentInput, options?: WriteOptions): Promise<WriteResult> {
    return this.#writable(name).then(() => super.write(name, content, options));
  }
  override edit(ref: EntryRef, options: EditOptions): Promise<EditResult> {
    return this.#writableRef(ref).then(() => super.edit(ref, options));
  }
  override update(ref: EntryRef, options: UpdateOptions): Promise<Entry> {
    return this.#writableRef(ref).then(() => super.update(ref, options));
  }
  override delete(ref: EntryRef, options?: { ifVersion?: number }): Promise<Entry> {
    return this.#writableRef(ref).then(() => super.delete(ref, options));
  }
  override lease(name: string, options: { ttlSeconds: number }): Promise<Lease> {
    return this.#writable(name).then(() => super.lease(name, options));
  }
  override read(ref: EntryRef, slice?: ReadSlice, options?: ReadOptions): Promise<ReadResult> {
    return this.#visible(ref).then(() => super.read(ref, slice, options));
  }
  override stream(ref: EntryRef, slice?: ReadSlice): ReturnType<Scratchpad['stream']> {
    return this.#visible(ref).then(() => super.stream(ref, slice));
  }
  override grep(ref: EntryRef, options: GrepOptions): Promise<GrepResult> {
    return this.#visible(ref).then(() => super.grep(ref, options));
  }
  override get(ref: EntryRef): Promise<Entry> {
    return this.#visible(ref).then(() => super.get(ref));
  }
  override async find(ref: EntryRef): Promise<Entry | undefined> {
    const entry = await super.find(ref);
    return entry && this.#inside(entry.name) ? entry : undefined;
  }
  override list(options?: ListOptions): Promise<ListPage> {
    const asked = options?.prefix ?? '';
    // The narrower of the two prefixes; one outside the window lists nothing.
    const prefix = asked.startsWith(this.#prefix)
      ? asked
      : this.#prefix.startsWith(asked)
        ? this.#prefix
        : null;
    if (prefix === null) return Promise.resolve({ entries: [] });
    return super.list({ ...options, prefix });
  }
  override async listForTurn(turn: string): Promise<Entry[]> {
    return (await super.listForTurn(turn)).filter((entry) => this.#inside(entry.name));
  }
  override async search(query: string, options?: { limit?: number }): Promise<SearchResult> {
    const result = await super.search(query, options);
    return { ...result, hits: result.hits.filter((hit) => this.#inside(hit.entry.name)) };
  }
  override view(options: SessionViewOptions): SessionScratchpad {
    const prefix =
      typeof options?.prefix === 'string' && options.prefix.startsWith(this.#prefix)
        ? options.prefix
        : this.#prefix;
    return new SessionView(this, { prefix, readOnly: this.#readOnly || options?.readOnly !== false });
  }

  #inside(name: string): boolean {
    return name.startsWith(this.#prefix);
  }
  async #visible(ref: EntryRef): Promise<void> {
    const name = typeof ref === 'string' ? ref : (await super.find(ref))?.name;
    if (name !== undefined && this.#inside(name)) return;
    throw new ScratchpadError(
      'ENTRY_NOT_FOUND',
      `No entry ${typeof ref === 'string' ? `"${ref}"` : `with id ${ref?.id}`} in this view of session "${this.id}".`,
      {
        hint: `This view shows only the entries whose names start with "${this.#prefix}"; list them to see which.`,
      },
    );
  }
  async #writable(name: string): Promise<void> {
    if (this.#readOnly) throw this.#readOnlyError();
    if (!this.#inside(name)) {
      throw new ScratchpadError(
        'READ_ONLY',
        `This view may write only names that start with "${this.#prefix}".`,
        {
          hint: `Write under "${this.#prefix}…".`,
          details: { prefix: this.#prefix },
        },
      );
    }
  }
  async #writableRef(ref: EntryRef): Promise<void> {
    if (this.#readOnly) throw this.#readOnlyError();
    await this.#visible(ref);
  }
  #readOnlyError(): ScratchpadError {
    return new ScratchpadError('READ_ONLY', `This view of session "${this.id}" is read-only.`, {
      hint: 'Read what you need; write your own results in your own session or ask the parent agent.',
      details: { prefix: this.#prefix },
    });
  }
}
