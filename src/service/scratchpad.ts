import { collectAsync } from '../core/collect-async.js';
import { type Entry, type EntryRecord, type SessionInfo, toEntry } from '../core/entry.js';
import { ScratchpadError } from '../core/errors.js';
import { formatBytes } from '../core/format.js';
import { describeLocation, type SliceLocation } from '../core/location.js';
import { assertValidName, assertValidSession } from '../core/names.js';
import type { Redactor } from '../core/redaction/redactor.js';
import { assertReadSlice, type ReadSlice } from '../core/slice.js';
import { decodeUtf8 } from '../core/utf8.js';
import type { IndexingProgress, IndexSessionOptions, StoreDriver, StoreTotals } from '../stores/driver.js';
import { expiry, isExpired } from './entry-expiry.js';
import { contextBlocks, describeGrep } from './grep/grep-blocks.js';
import { prepareGrep, scanLines } from './grep/grep-scan.js';
import type { GrepOptions } from './grep/grep-types.js';
import { assertNotLeased, keepLease, LEASE_CHANGE, type Lease, leaseOf, validateHolder } from './leases.js';
import { encodeListCursor } from './listing/list-cursor.js';
import {
  type ListFilter,
  type ListOptions,
  type ListPage,
  resolveListOptions,
} from './listing/list-options.js';
import { liveSessions, liveTotals } from './listing/live-totals.js';
import { assertText } from './reading/assert-text.js';
import { byteSpan, locateSpan } from './reading/byte-span.js';
import { ChunkCursor } from './reading/chunk-cursor.js';
import { encodedLength, sliceThatFits, sliceTooLarge } from './reading/read-limit.js';
import type { ScratchpadConfig } from './scratchpad-config.js';
import { resolveSearchLimit } from './search/search-limit.js';
import { searchByScan } from './search/search-scan.js';
import { resolveServiceContext, type ServiceContext } from './service-context.js';
import { type SessionOptions, SessionScratchpad } from './session-scratchpad.js';
import type {
  EditOptions,
  EditResult,
  EntryRef,
  GcResult,
  GrepResult,
  ReadOptions,
  ReadResult,
  SearchResult,
  UpdateOptions,
  WriteOptions,
  WriteResult,
} from './types.js';
import { appendContent, replaceContent } from './writing/content-commits.js';
import { type ContentInput, isStringInput } from './writing/content-input.js';
import { validateTtl } from './writing/option-rules.js';
import { checkPrecondition, conflict } from './writing/preconditions.js';
import { redactContent } from './writing/redact-content.js';
import { enforceCaps } from './writing/store-capacity.js';
import { editEntry, validateEditOptions } from './writing/text-edit.js';
import { validateIfVersion, validateUpdateOptions, validateWriteOptions } from './writing/write-options.js';
import { MAX_RETRIES, retryDelay } from './writing/write-retry.js';
import { guessTarget, writeTarget } from './writing/write-target.js';

/** A staging area this old is a crashed or abandoned writer's: `gc` sweeps it. */
const STAGING_ABANDONED_MS = 60 * 60 * 1000;

/**
 * The service every surface (library, tools, CLI, MCP, runtime) goes through: validation, slicing, lifecycle
 * and limits live here once for all backends. Create one with {@link createScratchpad}.
 */
export class Scratchpad {
  readonly driver: StoreDriver;
  readonly #context: ServiceContext;

  constructor(config: ScratchpadConfig) {
    this.#context = resolveServiceContext(config);
    this.driver = this.#context.driver;
  }

  /** Redacts secrets in what a model sees (tool results, previews); a no-op when the host turned it off. */
  get redactor(): Redactor {
    return this.#context.viewRedactor;
  }

  /** A view of this scratchpad bound to one session. */
  session(session: string, options?: SessionOptions): SessionScratchpad {
    return new SessionScratchpad(this, assertValidSession(session), options);
  }

  // ── writes ──────────────────────────────────────────────────────────────────────────────────────────────

  /** Stores `content` under `name` (see {@link WriteOptions} for replace/append/create and compare-and-set). */
  async write(
    session: string,
    name: string,
    content: ContentInput,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    assertValidSession(session);
    assertValidName(name);
    validateWriteOptions(options);
    content = await redactContent(content, this.#context.storeRedactor);
    const retryable =
      options.ifVersion === undefined && (isStringInput(content) || content instanceof Uint8Array);
    for (let attempt = 0; ; attempt++) {
      // A small write's first attempt does not read the entry: it guesses, and the commit checks the guess.
      const guess = attempt === 0 ? guessTarget(this.#context, session, name, content, options) : undefined;
      const target =
        guess ?? writeTarget(this.#context, name, await this.driver.doGetEntry(session, name), options);
      const rebuild = guess && ((found?: EntryRecord) => writeTarget(this.#context, name, found, options));
      let outcome: WriteResult | undefined;
      try {
        outcome =
          options.mode === 'append' && target.current
            ? await appendContent(this.#context, target.current, content, options)
            : await replaceContent(this.#context, session, name, target, content, options, rebuild);
      } catch (error) {
        // An append reads the entry's last chunk: another writer replacing it meanwhile is a lost race too.
        const changed =
          ScratchpadError.hasCode(error, 'VERSION_CONFLICT') && error.details.changedWhileReading === true;
        if (!changed || !retryable) throw error;
      }
      if (outcome) return outcome;
      if (!retryable || attempt >= MAX_RETRIES)
        throw conflict(name, await this.#live(session, name), options.ifVersion, attempt + 1);
      // Writers that lost a race retry at spread-out moments, so a crowd of them does not collide again.
      await retryDelay(attempt);
    }
  }

  /** Replaces `oldText` with `newText` in a text entry (exactly one occurrence unless `replaceAll`). */
  async edit(session: string, ref: EntryRef, options: EditOptions): Promise<EditResult> {
    validateEditOptions(options);
    for (let attempt = 0; ; attempt++) {
      const current = await this.#resolve(session, ref);
      checkPrecondition(current, options.ifVersion, current.name, false);
      assertNotLeased(current, options.holder, this.#context.now());
      const outcome = await editEntry(this.#context, current, options);
      if (outcome) return outcome;
      if (options.ifVersion !== undefined || attempt >= MAX_RETRIES) {
        throw conflict(
          current.name,
          await this.driver.doGetEntry(current.session, current.name),
          options.ifVersion,
        );
      }
    }
  }

  /** Changes an entry's metadata, pin or TTL without touching its content. */
  async update(session: string, ref: EntryRef, options: UpdateOptions): Promise<Entry> {
    validateUpdateOptions(options);
    for (let attempt = 0; ; attempt++) {
      const current = await this.#resolve(session, ref);
      checkPrecondition(current, options.ifVersion, current.name, false);
      const now = this.#context.now();
      assertNotLeased(current, options.holder, now);
      const record: EntryRecord = {
        ...current,
        pinned: options.pinned ?? current.pinned,
        evictable: options.evictable ?? current.evictable,
        expiresAt:
          options.ttlMs === undefined ? current.expiresAt : expiry(this.#context, options.ttlMs, now),
        metadata: keepLease(options, current, now),
        mediaType: options.mediaType ?? current.mediaType,
        updatedAt: now,
        version: current.version + 1,
      };
      const result = await this.driver.doCommit({
        mode: 'metadata',
        record,
        expectedVersion: current.version,
        expectedId: current.id,
      });
      if (result.ok) {
        this.#context.knownRecords.remember(result.record);
        return toEntry(result.record);
      }
      if (options.ifVersion !== undefined || attempt >= MAX_RETRIES)
        throw conflict(current.name, result.current, options.ifVersion);
    }
  }

  /**
   * Gives `holder` the right to change `name` until it releases the lease or the lease lapses (`ttlSeconds`);
   * others get `LEASED` (with the holder and the expiry) on write, append, edit, update and delete, and
   * compare-and-set still applies. The holder renews by leasing again. A name that does not exist yet is created
   * empty, so the lease reserves it. The lease lives in the entry's record (metadata key `scratchpad:lease`), so
   * it holds across processes and machines on every backend.
   */
  async lease(
    session: string,
    name: string,
    options: { ttlSeconds: number; holder: string },
  ): Promise<Lease> {
    assertValidSession(session);
    assertValidName(name);
    validateHolder(options?.holder);
    validateTtl((options?.ttlSeconds ?? Number.NaN) * 1000);
    for (let attempt = 0; ; attempt++) {
      const now = this.#context.now();
      const current = await this.#live(session, name);
      assertNotLeased(current, options.holder, now);
      const lease = { holder: options.holder, expiresAt: now + options.ttlSeconds * 1000 };
      try {
        const entry = current
          ? await this.update(session, name, {
              ifVersion: current.version,
              holder: options.holder,
              [LEASE_CHANGE]: lease,
            } as UpdateOptions)
          : (
              await this.write(session, name, '', {
                mode: 'create',
                holder: options.holder,
                [LEASE_CHANGE]: lease,
              } as WriteOptions)
            ).entry;
        return { name, ...lease, version: entry.version };
      } catch (error) {
        const lost =
          ScratchpadError.hasCode(error, 'VERSION_CONFLICT') ||
          ScratchpadError.hasCode(error, 'ENTRY_EXISTS');
        if (!lost || attempt >= MAX_RETRIES) throw error;
      }
    }
  }

  /** Ends `holder`'s lease on `name`; `false` when it held none (it lapsed, or someone else holds it). */
  async release(session: string, name: string, options: { holder: string }): Promise<boolean> {
    validateHolder(options?.holder);
    for (let attempt = 0; ; attempt++) {
      const current = await this.#live(session, assertValidName(name));
      const lease = leaseOf(current, this.#context.now());
      if (!current || lease?.holder !== options.holder) return false;
      try {
        await this.update(session, name, {
          ifVersion: current.version,
          holder: options.holder,
          [LEASE_CHANGE]: null,
        } as UpdateOptions);
        return true;
      } catch (error) {
        if (!ScratchpadError.hasCode(error, 'VERSION_CONFLICT') || attempt >= MAX_RETRIES) throw error;
      }
    }
  }

  /** Deletes an entry. */
  async delete(
    session: string,
    ref: EntryRef,
    options: { ifVersion?: number; holder?: string } = {},
  ): Promise<Entry> {
    validateIfVersion(options.ifVersion);
    for (let attempt = 0; ; attempt++) {
      const current = await this.#resolve(session, ref, { includeExpired: true });
      checkPrecondition(current, options.ifVersion, current.name, false);
      assertNotLeased(current, options.holder, this.#context.now());
      if (await this.driver.doDeleteEntry(current)) {
        this.#context.knownRecords.forget(current.session, current.name);
        return toEntry(current);
      }
      if (options.ifVersion !== undefined || attempt >= MAX_RETRIES) {
        throw conflict(
          current.name,
          await this.driver.doGetEntry(current.session, current.name),
          options.ifVersion,
        );
      }
    }
  }

  // ── reads ───────────────────────────────────────────────────────────────────────────────────────────────

  /** The entry's metadata. */
  async get(session: string, ref: EntryRef): Promise<Entry> {
    return toEntry(await this.#resolve(session, ref));
  }

  /** The entry's metadata, or `undefined` when it does not exist (or expired). */
  async find(session: string, ref: EntryRef): Promise<Entry | undefined> {
    try {
      return await this.get(session, ref);
    } catch (error) {
      if (ScratchpadError.hasCode(error, 'ENTRY_NOT_FOUND')) return undefined;
      throw error;
    }
  }

  /**
   * Reads a slice. Text entries slice by characters or lines and return text; binary entries slice by bytes and
   * return base64 (default) or hex. The result says where the slice is, so a caller knows how to continue.
   */
  async read(
    session: string,
    ref: EntryRef,
    slice: ReadSlice = { type: 'full' },
    options: ReadOptions = {},
  ): Promise<ReadResult> {
    assertReadSlice(slice);
    return this.#consistently(() => this.#read(session, ref, slice, options));
  }

  async #read(session: string, ref: EntryRef, slice: ReadSlice, options: ReadOptions): Promise<ReadResult> {
    const record = await this.#resolve(session, ref);
    const cursor = new ChunkCursor(this.driver, record);
    const span = await byteSpan(cursor, slice);
    if (span.end - span.start > this.#context.maxReadBytes) {
      throw new ScratchpadError(
        'CONTENT_TOO_LARGE',
        `That slice is ${formatBytes(span.end - span.start)}; read() returns at most ${formatBytes(this.#context.maxReadBytes)}.`,
        {
          hint: 'Read a smaller slice (head, range, lines) or stream it.',
          details: { bytes: span.end - span.start },
        },
      );
    }
    const encoding = record.kind === 'text' ? 'utf8' : (options.encoding ?? 'base64');
    const returned = encodedLength(span.end - span.start, encoding);
    if (options.maxBytes !== undefined && returned > options.maxBytes) {
      const location = await locateSpan(cursor, span);
      const fit = await sliceThatFits(cursor, location, span.start, options.maxBytes, encoding);
      throw sliceTooLarge(record, location, returned, options.maxBytes, fit);
    }
    const bytes = await cursor.bytes(span.start, span.end);
    const location = await locateSpan(cursor, span);
    return {
      entry: toEntry(record),
      content: record.kind === 'text' ? decodeUtf8(bytes) : bytes.toString(encoding),
      encoding,
      location,
      description: describeLocation(location),
      complete: span.start === 0 && span.end === record.bytes,
    };
  }

  /** Streams a slice as raw bytes (for the CLI and for slices too big for one string). */
  async stream(
    session: string,
    ref: EntryRef,
    slice: ReadSlice = { type: 'full' },
  ): Promise<{ entry: Entry; location: SliceLocation; pieces: AsyncIterable<Uint8Array> }> {
    assertReadSlice(slice);
    return this.#consistently(async () => {
      const record = await this.#resolve(session, ref);
      const cursor = new ChunkCursor(this.driver, record);
      const span = await byteSpan(cursor, slice);
      const location = await locateSpan(cursor, span);
      return { entry: toEntry(record), location, pieces: cursor.stream(span.start, span.end) };
    });
  }

  /** Lines of a text entry that match a regular expression, with line numbers and optional context. */
  async grep(session: string, ref: EntryRef, options: GrepOptions): Promise<GrepResult> {
    const prepared = prepareGrep(options);
    return this.#consistently(() => this.#grep(session, ref, options, prepared));
  }

  async #grep(
    session: string,
    ref: EntryRef,
    options: GrepOptions,
    prepared: ReturnType<typeof prepareGrep>,
  ): Promise<GrepResult> {
    const record = await this.#resolve(session, ref);
    assertText(record, 'grep');
    const cursor = new ChunkCursor(this.driver, record);
    const scan = await scanLines(cursor, prepared, options.stopAtMax ?? false);
    const result: GrepResult = {
      entry: toEntry(record),
      pattern: options.pattern,
      matches: scan.matches,
      total: scan.total,
      complete: scan.complete,
      description: describeGrep(scan.matches.length, scan.total, scan.complete, record.lines),
    };
    if (prepared.context > 0 && scan.matches.length > 0) {
      result.blocks = await contextBlocks(cursor, scan.matches, prepared.context);
    }
    return result;
  }

  // ── listing, sessions, lifecycle ────────────────────────────────────────────────────────────────────────

  /**
   * One page of a session's live entries, by name (or by `orderBy`): at most `limit` (default 1,000), after the
   * entry `cursor` names. `nextCursor` is present when more follow. Pages are keyset pages: an entry that exists
   * the whole time is listed exactly once, whatever is written or deleted between pages (in `updatedAt` order an
   * entry rewritten meanwhile moves to the end, so it can come again there).
   */
  async list(session: string, options: ListOptions = {}): Promise<ListPage> {
    assertValidSession(session);
    const resolved = resolveListOptions(options);
    const records = await this.driver.doListEntries({
      session,
      liveAt: this.#context.now(),
      orderBy: resolved.orderBy,
      limit: resolved.limit + 1,
      ...(resolved.turn === undefined ? {} : { turn: resolved.turn }),
      ...(resolved.prefix === undefined ? {} : { prefix: resolved.prefix }),
      ...(resolved.after === undefined ? {} : { after: resolved.after }),
    });
    const page = records.slice(0, resolved.limit);
    const last = page.at(-1);
    return records.length > resolved.limit && last
      ? { entries: page.map(toEntry), nextCursor: encodeListCursor(resolved.orderBy, last) }
      : { entries: page.map(toEntry) };
  }

  /**
   * Every live entry of a session that `filter` selects, page by page (1,000 at a time), for callers that need
   * them all; with the same guarantees as {@link list} pages.
   */
  async *entries(session: string, filter: ListFilter = {}): AsyncGenerator<Entry, void, undefined> {
    let cursor: string | undefined;
    do {
      const page: ListPage = await this.list(session, {
        ...filter,
        ...(cursor === undefined ? {} : { cursor }),
      });
      yield* page.entries;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }

  /** Live entries written during one turn, oldest first (seed 000: the planner shows the model only its own turn). */
  listForTurn(session: string, turn: string): Promise<Entry[]> {
    return collectAsync(this.entries(session, { turn, orderBy: 'createdAt' }));
  }

  /**
   * Indexes a session for search until its index covers everything written to it so far, reporting how far it got
   * (`onProgress`, a few times a second), so that the next {@link search} is whole. A search alone waits for the
   * index only a little and answers from the indexed part; a long-lived process keeps indexing in the background
   * anyway, a short one (the CLI) calls this first. Resolves with the final progress, or `undefined` at once on
   * stores without a background index (their search is always whole). An
   * aborted `signal` rejects with its reason; what was indexed stays indexed and indexing resumes at the next call.
   */
  async finishIndexing(
    session: string,
    options: IndexSessionOptions = {},
  ): Promise<IndexingProgress | undefined> {
    assertValidSession(session);
    return this.driver.doIndexSession?.(session, options);
  }

  /**
   * Ranked full-text search over a session's text entries (FTS5 BM25 on SQLite and PostgreSQL's full-text search,
   * a scan elsewhere): the best `limit` entries (default 10, at most 1,000).
   */
  async search(session: string, query: string, options: { limit?: number } = {}): Promise<SearchResult> {
    assertValidSession(session);
    if (typeof query !== 'string' || query.trim().length === 0) {
      throw new ScratchpadError('INVALID_ARGUMENT', 'The search query is empty.', {
        hint: 'Give one or more words.',
      });
    }
    const limit = resolveSearchLimit(options?.limit);
    const now = this.#context.now();
    const found = this.driver.doSearch
      ? await this.driver.doSearch({ session, query, limit: limit * 2 })
      : { hits: await searchByScan(this.driver, session, query, limit * 2) };
    const hits = found.hits
      .filter((hit) => !isExpired(hit.record, now))
      .slice(0, limit)
      .map((hit) => ({ entry: toEntry(hit.record), score: hit.score, snippet: hit.snippet }));
    return found.indexing ? { hits, indexing: found.indexing } : { hits };
  }

  /** Every session with its count and size of live entries. */
  sessions(): Promise<SessionInfo[]> {
    return liveSessions(this.driver, this.#context.now());
  }

  /** One session's summary; `SESSION_NOT_FOUND` if it does not exist. */
  async sessionInfo(session: string): Promise<SessionInfo> {
    assertValidSession(session);
    const found = (await this.sessions()).find((info) => info.id === session);
    if (!found) throw await this.#sessionNotFound(session);
    return found;
  }

  /** Deletes a session and everything in it. */
  async deleteSession(session: string): Promise<{ entries: number; bytes: number }> {
    assertValidSession(session);
    const deleted = await this.driver.doDeleteSession(session);
    this.#context.knownRecords.forget(session);
    if (!deleted) throw await this.#sessionNotFound(session);
    return deleted;
  }

  /** Totals over the live entries of the whole store. */
  stats(): Promise<StoreTotals> {
    return liveTotals(this.driver, this.#context.now());
  }

  /**
   * Removes expired unpinned entries, sweeps abandoned staging areas, releases the content of entries replaced or
   * deleted earlier that the driver kept for readers (once their wait is over), and enforces the size caps (see
   * `store-capacity.ts`). Returns what it freed, and what the driver still keeps for readers with the time a
   * later `gc` can free it.
   */
  async gc(): Promise<GcResult> {
    // Sweep first: removing an entry may release due contents too, and they must count in this report.
    const swept = await this.driver.doSweepStaging(STAGING_ABANDONED_MS);
    const now = this.#context.now();
    const removed: GcResult['removed'] = [];
    for (const record of await this.driver.doListEntries({
      expiredAt: now,
      pinned: false,
      orderBy: 'updatedAt',
    })) {
      if (await this.driver.doDeleteEntry(record)) {
        removed.push({
          session: record.session,
          name: record.name,
          id: record.id,
          bytes: record.bytes,
          reason: 'expired',
        });
      }
    }
    removed.push(...(await enforceCaps(this.#context)));
    // What this gc removed may be kept for readers: ask again for what is held now.
    const after = removed.length > 0 ? await this.driver.doSweepStaging(STAGING_ABANDONED_MS) : undefined;
    return {
      removed,
      bytes: removed.reduce((sum, item) => sum + item.bytes, 0),
      contentKept: this.driver.keepsContentForReaders === true,
      staging: swept.staging + (after?.staging ?? 0),
      released: {
        contents: swept.released.contents + (after?.released.contents ?? 0),
        bytes: swept.released.bytes + (after?.released.bytes ?? 0),
      },
      files: {
        count: swept.files.count + (after?.files.count ?? 0),
        bytes: swept.files.bytes + (after?.files.bytes ?? 0),
      },
      held: after?.held ?? swept.held,
      unindexing: (after ?? swept).unindexing ?? { contents: 0, bytes: 0 },
    };
  }

  /** Closes the driver. */
  close(): Promise<void> {
    return this.driver.close();
  }

  /** Runs a read again when a concurrent writer replaced the entry under it (its old chunks vanished). */
  async #consistently<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        const changed =
          ScratchpadError.hasCode(error, 'VERSION_CONFLICT') && error.details.changedWhileReading === true;
        if (!changed || tries >= MAX_RETRIES) throw error;
      }
    }
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────────────────

  async #live(session: string, name: string): Promise<EntryRecord | undefined> {
    const record = await this.driver.doGetEntry(session, name);
    return record && !isExpired(record, this.#context.now()) ? record : undefined;
  }

  async #resolve(
    session: string,
    ref: EntryRef,
    options: { includeExpired?: boolean } = {},
  ): Promise<EntryRecord> {
    assertValidSession(session);
    let record: EntryRecord | undefined;
    if (typeof ref === 'string') {
      record = await this.driver.doGetEntry(session, assertValidName(ref));
    } else if (ref && typeof ref.id === 'string' && /^[0-9a-f]{16}$/.test(ref.id)) {
      record = await this.driver.doGetEntryById(ref.id);
      if (record && record.session !== session) record = undefined;
    } else {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `Invalid entry id ${JSON.stringify((ref as { id?: unknown })?.id)}: ids are 16 hex characters.`,
        {
          hint: 'Use the id from the observation that saved the entry, or address the entry by name.',
        },
      );
    }
    if (record && (options.includeExpired || !isExpired(record, this.#context.now()))) return record;
    throw await this.#notFound(session, ref, record);
  }

  async #notFound(
    session: string,
    ref: EntryRef,
    expired: EntryRecord | undefined,
  ): Promise<ScratchpadError> {
    const label = typeof ref === 'string' ? `"${ref}"` : `with id ${ref.id}`;
    const names = (await this.list(session, { limit: 21 })).entries.map((entry) => entry.name);
    const listed =
      names.length === 0
        ? 'The session has no entries.'
        : `Entries in this session: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}.`;
    return new ScratchpadError(
      'ENTRY_NOT_FOUND',
      expired
        ? `Entry ${label} expired at ${new Date(expired.expiresAt as number).toISOString()} in session "${session}".`
        : `No entry ${label} in session "${session}".`,
      { hint: listed, details: { session, ref, names: names.slice(0, 20) } },
    );
  }

  async #sessionNotFound(session: string): Promise<ScratchpadError> {
    const sessions = (await this.driver.doListSessions()).map((info) => info.id);
    return new ScratchpadError('SESSION_NOT_FOUND', `No session "${session}".`, {
      hint:
        sessions.length === 0
          ? 'The store has no sessions yet.'
          : `Sessions: ${sessions.slice(0, 20).join(', ')}${sessions.length > 20 ? ', …' : ''}.`,
      details: { session, sessions: sessions.slice(0, 20) },
    });
  }
}

/** Creates the service over a driver. */
export function createScratchpad(config: ScratchpadConfig): Scratchpad {
  return new Scratchpad(config);
}

export { newId } from './new-id.js';
export type { ScratchpadConfig } from './scratchpad-config.js';
export { SessionScratchpad } from './session-scratchpad.js';
