import type { Chunk, ChunkAxis } from '../../core/chunk.js';
import type { EntryRecord, SessionInfo } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { queryTerms } from '../../core/query-terms.js';
import { BackgroundIndexer, SEARCH_INDEX_WAIT_MS } from '../background-indexer.js';
import { type ChunkCompression, decodeChunks, resolveCompression, type StoredChunk } from '../chunk-codec.js';
import type {
  ChunkSource,
  CommitRequest,
  CommitResult,
  ContentSink,
  DriverSearchRequest,
  DriverSearchResult,
  IndexingProgress,
  IndexSessionOptions,
  ListQuery,
  StoreDriver,
  StoreTotals,
  SweepResult,
} from '../driver.js';
import { emptySweep } from '../driver-helpers.js';
import { BlobDirectory } from './blob-directory.js';
import { untilNotBusy } from './busy-pauses.js';
import { ContentChangedError } from './chunk-rows.js';
import { registerChunkTextFunction } from './chunk-text-function.js';
import { ContentIds } from './content-ids.js';
import { DiskReserve } from './disk-reserve.js';
import { toFtsQuery } from './fts-query.js';
import { IndexThread, IndexThreadGone } from './index-thread.js';
import { IndexedSessions } from './indexed-sessions.js';
import { rankInSlices } from './rank-in-slices.js';
import { type BlobFile, ChunkStore, type ExternalChunk } from './sqlite-chunks.js';
import { type CompletedStaging, commitChange } from './sqlite-commit.js';
import { configureDatabase, openDatabaseFile, type SqliteDatabase } from './sqlite-database.js';
import { EntryTable } from './sqlite-entries.js';
import { toStoreError } from './sqlite-errors.js';
import { contentKey } from './sqlite-records.js';
import { migrateSchema } from './sqlite-schema.js';
import { SearchIndex } from './sqlite-search.js';
import { type StagingArea, type StagingHost, StagingWriter } from './sqlite-staging.js';
import { ImmediateTransaction } from './sqlite-transaction.js';
import { TurnBudget } from './turn-budget.js';
import { WalCheckpointer } from './wal-checkpointer.js';

/** Options for {@link createSqliteDriver}: a `path` to open, or a `database` you opened. */
export interface SqliteDriverConfig {
  /** The database file; created with its parent directories if missing. `:memory:` for a private in-memory store. */
  path?: string;
  /**
   * An open connection of the {@link SqliteDatabase} shape (a better-sqlite3 `Database`, for one) dedicated to the
   * scratchpad. The driver sets its pragmas and creates its tables; `close()` leaves it open (it is yours). While
   * the store is open the connection runs with `busy_timeout = 0` (the store waits for locks itself, without
   * blocking the event loop); `close()` gives it back the busy timeout it had when it was passed in.
   */
  database?: SqliteDatabase;
  /** How long to wait for another process's write lock before failing with `STORE_UNAVAILABLE` (default 5000). */
  busyTimeoutMs?: number;
  /**
   * Bytes of a write stored inside the database before the rest goes to a side file in `<path>.blobs/`
   * (default 1 MiB, see {@link DEFAULT_INLINE_BYTES}). `Infinity` keeps everything in the database file; `0`
   * puts every chunk in side files. Only with `path` (not `:memory:`): a store opened with `database` or in memory
   * keeps everything inline.
   */
  inlineBytes?: number;
  /**
   * How chunks written from now on are stored: `none` (the default: as written), `brotli`, `gzip`, `zstd` (Node 22.15+ and 23.8+
   * only). Each chunk is compressed on its own, and only when that saves at least a tenth, so a slice
   * still reads only the chunks it touches. Chunks already stored keep their codec: any mix reads back.
   */
  compression?: ChunkCompression;
  /** Clock in epoch milliseconds (tests inject one). */
  now?: () => number;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * How long one indexing (or un-indexing) step may go on taking more chunks, in milliseconds: 0, so a step is one
 * chunk in its own transaction. The long steps are FTS5 merging segments when a step commits (decision 011): a
 * commit of one chunk merges one chunk's segment. `node bench/first-search.js --sizes 100,1000`, alternated, two
 * runs each: 1 GB worst loop delay 103 and 125 ms with 10 ms steps, 76 and 93 ms with one chunk; p99 62 -> 37-46.
 * On the index thread (decision 012) a step holds the write lock, which the store's writes wait for: one chunk
 * keeps that short too.
 */
const INDEX_STEP_MS = 0;

/**
 * How long the index thread goes on taking steps (transactions of {@link INDEX_STEP_MS}) per request of the loop,
 * unless a write of the store waits for the lock: a message and a turn of the loop per chunk made indexing 1 GB
 * slower than on the loop on a loaded machine (decision 012).
 */
const INDEX_THREAD_BATCH_MS = 100;

/**
 * How long the loop's own index steps run, in all, before the index thread starts: a small session is indexed
 * in a few milliseconds, and starting and closing a thread added ~40 ms to a one-shot search and close.
 */
const INDEX_THREAD_AFTER_MS = 50;

/** How long a search's ranking and snippets run before they yield the event loop a turn, in milliseconds. */
const SEARCH_TURN_MS = 10;

/** The key of the un-indexing loop (the queue is store-wide). */
const UNINDEX_LOOP = '';

/**
 * Default {@link SqliteDriverConfig.inlineBytes}: entries up to 1 MiB live in the database file alone; bigger ones
 * keep their first MiB there and the rest in a side file. SQLite documents that blobs above about 100 KB read
 * and write faster as separate files; in the database, each byte is also written twice (WAL, then checkpoint).
 */
export const DEFAULT_INLINE_BYTES = 1024 * 1024;

/**
 * How long a replaced or deleted entry's content stays readable for readers that resolved the entry before the
 * change (a stream or grep in flight in another process). Past it the content is purged by the next commit.
 */
export const RETIRED_CONTENT_RETENTION_MS = 10 * 60 * 1000;

/**
 * The default store: one SQLite file in WAL mode, safe to share between processes. Content is kept as 256 KiB
 * chunks with an index row per chunk (offsets on the byte, character and line axes), so a slice costs one index
 * seek per end plus the chunks it covers, whatever the entry's size. Commits are `BEGIN IMMEDIATE` transactions
 * with compare-and-set on the entry's version, taking the write lock without blocking the event loop. Search is
 * FTS5 with BM25, indexed on first search in short steps, on a thread of its own for a store on a file (a search
 * over a session still being indexed says how far it got).
 *
 * Small contents (the first {@link SqliteDriverConfig.inlineBytes}, 1 MiB by default) are stored inside the
 * database file. The rest of a larger content goes to a side file in `<path>.blobs/`, written with positional
 * writes and fsynced before the commit that makes it visible; the database keeps the chunk index and where each
 * chunk's bytes are. Side files are deleted once no content points at them (after the retention of replaced
 * content, {@link RETIRED_CONTENT_RETENTION_MS}); a crash leaves at worst orphan files, which `gc()` removes.
 * A store in memory, or opened with a `database` you pass, keeps everything inside the database. See
 * `src/stores/sqlite/README.md` for the layout.
 */
export class SqliteDriver implements StoreDriver {
  readonly backend = 'sqlite';
  /** Replaced and deleted content is retired, kept for readers until a sweep past its wait releases it. */
  readonly keepsContentForReaders = true;
  /** The file (or `:memory:`) this driver stores in. */
  readonly path: string;
  readonly #database: SqliteDatabase;
  readonly #ownsDatabase: boolean;
  /** The busy timeout a connection passed in had, given back when the store closes (the store runs it with 0). */
  readonly #callerBusyTimeoutMs: number | undefined;
  readonly #busyTimeoutMs: number;
  readonly #now: () => number;
  readonly #transaction: ImmediateTransaction;
  readonly #entries: EntryTable;
  readonly #chunks: ChunkStore;
  readonly #search: SearchIndex;
  /** Sessions found fully indexed, with what says whether the database changed since. */
  readonly #indexedSessions: IndexedSessions;
  readonly #indexer: BackgroundIndexer;
  /** Works off the un-indexing queue (one loop, key {@link UNINDEX_LOOP}). */
  readonly #unindexer: BackgroundIndexer;
  /** Runs the loops' steps off the event loop (file-backed stores this driver opened; decision 012). */
  readonly #indexThread: IndexThread | undefined;
  /** Time the loop's own index steps took so far (the thread starts past {@link INDEX_THREAD_AFTER_MS}). */
  #loopStepMs = 0;
  /** The side-file directory; `undefined` in memory (no chunk can be external there). */
  readonly #blobs: BlobDirectory | undefined;
  /** Runs WAL checkpoints in a thread of their own (file-backed stores this driver opened). */
  readonly #checkpointer: WalCheckpointer | undefined;
  /** Space set aside so deletes and gc work on a full disk (file-backed stores only). */
  #reserve: DiskReserve | undefined;
  readonly #staging: StagingHost;
  readonly #contentIds: ContentIds;
  /** Open staging areas of this driver, by content key: their unflushed rows are committed from here. */
  readonly #writers = new Map<number, StagingWriter>();
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(config: SqliteDriverConfig) {
    if ((config.path === undefined) === (config.database === undefined)) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        'Give the SQLite driver either a path or a database, not both or neither.',
        {
          hint: "createSqliteDriver({ path: '/path/to/scratchpad.db' }) or createSqliteDriver({ database: new Database(...) }).",
        },
      );
    }
    if (config.inlineBytes !== undefined && !(config.inlineBytes >= 0)) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `inlineBytes must be a number >= 0, not ${config.inlineBytes}.`,
        {
          hint: 'Use a byte count such as 1048576, Infinity to keep everything in the database, or 0 for side files only.',
        },
      );
    }
    const compression = resolveCompression(config.compression);
    this.#busyTimeoutMs = config.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    this.#now = config.now ?? Date.now;
    this.path = config.path ?? config.database?.name ?? ':memory:';
    this.#ownsDatabase = config.database === undefined;
    this.#database = config.database ?? openDatabaseFile(this.path);
    this.#callerBusyTimeoutMs = this.#ownsDatabase ? undefined : busyTimeoutOf(this.#database);
    try {
      this.#blobs = blobDirectoryOf(this.path);
      configureDatabase(this.#database, this.#busyTimeoutMs);
      migrateSchema(this.#database, this.path);
      registerChunkTextFunction(this.#database, this.#blobs);
      this.#checkpointer =
        this.#ownsDatabase && this.#blobs ? new WalCheckpointer(this.path, this.#database) : undefined;
      const checkpointer = this.#checkpointer;
      this.#transaction = new ImmediateTransaction(
        this.#database,
        this.#busyTimeoutMs,
        checkpointer && (() => checkpointer.committed()),
      );
      this.#entries = new EntryTable(this.#database);
      this.#chunks = new ChunkStore(this.#database, this.#blobs);
      this.#search = new SearchIndex(this.#database, this.#blobs);
      this.#indexedSessions = new IndexedSessions(this.#database);
      this.#indexThread =
        this.#ownsDatabase && this.#blobs
          ? new IndexThread(this.path, {
              busyTimeoutMs: this.#busyTimeoutMs,
              stepMs: INDEX_STEP_MS,
              batchMs: INDEX_THREAD_BATCH_MS,
              waitingWriters: this.#transaction.waitingWriters,
            })
          : undefined;
      this.#indexer = new BackgroundIndexer((session) =>
        this.#backgroundStep({ kind: 'index', session }, () =>
          this.#runWhenFree(() => this.#search.indexChunks(session, INDEX_STEP_MS)),
        ),
      );
      this.#unindexer = new BackgroundIndexer(() =>
        this.#backgroundStep({ kind: 'unindex' }, async () =>
          (await this.#read(() => this.#search.hasQueued()))
            ? this.#runWhenFree(() => this.#search.unindexChunks(INDEX_STEP_MS))
            : 0,
        ),
      );
      // What a crashed process (or another one) left queued is worked off from here.
      if (this.#search.hasQueued()) this.#unindexer.start(UNINDEX_LOOP);
      // From here on, reads and writes wait for a lock without blocking the event loop (`untilNotBusy`,
      // decision 012): SQLite's own wait sleeps in this thread. Opening, like the migration above, still waits there.
      this.#database.exec('PRAGMA busy_timeout = 0');
    } catch (error) {
      if (this.#ownsDatabase) this.#database.close();
      else this.#restoreBusyTimeout();
      throw toStoreError(error, this.path, this.#busyTimeoutMs);
    }
    const inlineBytes =
      this.#ownsDatabase && this.#blobs ? (config.inlineBytes ?? DEFAULT_INLINE_BYTES) : Infinity;
    this.#staging = this.#stagingHost(inlineBytes, compression);
    this.#contentIds = new ContentIds((count) =>
      this.#runWhenFree(() => this.#chunks.reserveContentIds(count)),
    );
    if (this.#ownsDatabase && this.#blobs) {
      this.#reserve = new DiskReserve(this.path);
      this.#reserve.ensure();
    }
  }

  async doStage(session: string): Promise<ContentSink> {
    // No row yet: the first step that stores something for it creates it, else the commit does.
    this.#assertOpen();
    this.#reserve?.assertRoomForWrite(this.path);
    const content = await this.#contentIds.next();
    const writer = new StagingWriter(
      { content, session, createdAt: this.#now(), stored: false },
      this.#staging,
    );
    this.#writers.set(content, writer);
    return writer;
  }

  async doCommit(request: CommitRequest): Promise<CommitResult> {
    const staging = request.mode === 'metadata' ? undefined : contentKey(request.stagingId);
    const writer = staging === undefined ? undefined : this.#writers.get(staging);
    let rows: StagedRows = { inline: [], external: [] };
    this.#reserve?.assertRoomForWrite(this.path);
    if (writer) {
      this.#assertOpen();
      try {
        rows = await writer.finish();
      } catch (error) {
        throw toStoreError(error, this.path, this.#busyTimeoutMs);
      }
    }
    const tables = { entries: this.#entries, chunks: this.#chunks, search: this.#search };
    const result = await this.#change(() => {
      const now = this.#now();
      // The staged rows go in only once the version check passed: on a conflict nothing is written, and the
      // writer keeps its rows for a retry or an abort.
      const result = commitChange(tables, request, now, (key) => this.#completeStaging(key, writer, rows));
      if (result.ok) this.#chunks.purgeRetired(now - RETIRED_CONTENT_RETENTION_MS);
      return result;
    });
    if (result.ok && writer) {
      writer.rowsInserted();
      this.#writers.delete(writer.content);
    }
    return result;
  }

  /**
   * Inside a commit's transaction: makes staging area `content` hold every staged chunk (creating its row, as an
   * entry's content at once, for a writer that had not stored anything yet) and returns it.
   */
  #completeStaging(content: number, writer: StagingWriter | undefined, rows: StagedRows): CompletedStaging {
    const created = writer !== undefined && !writer.area.stored;
    if (created) {
      this.#chunks.insertContent(content, writer.area.session, writer.area.createdAt, true);
    } else if (!this.#chunks.isStaging(content)) {
      throw new Error(
        `Staging area ${content} does not exist: it was committed, aborted, or swept as abandoned.`,
      );
    }
    for (const chunk of rows.inline) this.#chunks.insertChunk(content, chunk);
    if (rows.external.length > 0) this.#chunks.insertExternalChunks(content, rows.external);
    else if (!writer && this.#chunks.ownsFile(content)) {
      throw new Error(
        `Staging area ${content} was staged by another driver: commit it with the driver that staged it.`,
      );
    }
    return created ? { content, createdWithChunks: rows.inline.length + rows.external.length } : { content };
  }

  async doGetEntry(session: string, name: string): Promise<EntryRecord | undefined> {
    return this.#read(() => this.#entries.get(session, name));
  }

  async doGetEntryById(id: string): Promise<EntryRecord | undefined> {
    return this.#read(() => this.#entries.getById(id));
  }

  async doListEntries(query: ListQuery): Promise<EntryRecord[]> {
    return this.#read(() => this.#entries.list(query));
  }

  async doLocateChunk(record: EntryRecord, axis: ChunkAxis, position: number): Promise<number> {
    if (record.chunkCount === 0) return 0;
    // Starts never decrease with seq, so clamping the unbounded answer equals searching only [0, chunkCount).
    const seq = await this.#read(() => this.#chunks.locate(contentKey(record.contentId), axis, position));
    return Math.min(seq, record.chunkCount - 1);
  }

  async doReadChunks(record: EntryRecord, seqStart: number, seqEnd: number): Promise<Chunk[]> {
    const stored = await this.#readRange(record, seqStart, seqEnd, (content, start, end) =>
      this.#chunks.readChunks(content, start, end),
    );
    return decodeChunks(stored, `"${record.session}/${record.name}"`);
  }

  async doChunkSources(record: EntryRecord, seqStart: number, seqEnd: number): Promise<ChunkSource[]> {
    return this.#readRange(record, seqStart, seqEnd, (content, start, end) =>
      this.#chunks.chunkSources(content, start, end),
    );
  }

  /** Chunks `[seqStart, seqEnd)` of `record` as `read` gives them; a content gone meanwhile is a changed entry. */
  #readRange<T>(
    record: EntryRecord,
    seqStart: number,
    seqEnd: number,
    read: (content: number, start: number, end: number) => T[],
  ): Promise<T[]> {
    const start = Math.max(0, seqStart);
    const end = Math.min(seqEnd, record.chunkCount);
    if (end <= start) return Promise.resolve([]);
    return this.#read(() => {
      const content = contentKey(record.contentId);
      let chunks: T[];
      try {
        chunks = read(content, start, end);
      } catch (error) {
        if (error instanceof ContentChangedError) throw changedWhileReading(record);
        throw error;
      }
      if (chunks.length < end - start && !this.#chunks.contentExists(content)) {
        throw changedWhileReading(record);
      }
      return chunks;
    });
  }

  async doDeleteEntry(record: EntryRecord): Promise<boolean> {
    return this.#freeing(() => {
      const current = this.#entries.get(record.session, record.name);
      if (!current || current.version !== record.version || current.id !== record.id) return false;
      const content = contentKey(current.contentId);
      const now = this.#now();
      this.#search.unindexContent(content);
      this.#entries.delete(current.session, current.name);
      this.#chunks.retireContent(content, now);
      this.#chunks.purgeRetired(now - RETIRED_CONTENT_RETENTION_MS);
      return true;
    });
  }

  async doListSessions(): Promise<SessionInfo[]> {
    return this.#read(() => this.#entries.listSessions());
  }

  async doDeleteSession(session: string): Promise<{ entries: number; bytes: number } | undefined> {
    return this.#freeing(() => {
      if (!this.#entries.sessionExists(session)) return undefined;
      const totals = this.#entries.sessionTotals(session);
      const contents = this.#entries.sessionContents(session);
      const now = this.#now();
      this.#search.unindexSession(session);
      this.#entries.deleteSession(session);
      for (const content of contents) this.#chunks.retireContent(content, now);
      this.#chunks.purgeRetired(now - RETIRED_CONTENT_RETENTION_MS);
      return totals;
    });
  }

  async doStats(): Promise<StoreTotals> {
    return this.#read(() => this.#entries.totals());
  }

  async doSearch(request: DriverSearchRequest): Promise<DriverSearchResult> {
    const query = toFtsQuery(request.query);
    const terms = queryTerms(request.query);
    if (query === undefined || request.limit <= 0) return { hits: [] };
    const complete = await this.#indexFor(request.session);
    // How far indexing got is read before the ranking: the index thread may finish between the two, and a
    // ranking of the part indexed before must not look complete.
    const progress = complete ? undefined : await this.#read(() => this.#search.progress(request.session));
    // Ranking runs in slices and snippets one at a time, yielding the loop every SEARCH_TURN_MS: on a 1 GB session
    // the one ranking query and ten snippets (each re-reads a 256 KiB chunk) held the loop for up to 60 ms.
    const turns = new TurnBudget(SEARCH_TURN_MS);
    const ranked = await rankInSlices(
      {
        rank: (from, to, limit, matches) =>
          this.#read(() => this.#search.rank(request.session, query, limit, from, to, matches)),
        lastChunk: () => this.#read(() => this.#search.lastChunk()),
        matches: () => this.#read(() => this.#search.matches(query)),
      },
      request.limit,
      turns,
    );
    const hits: DriverSearchResult['hits'] = [];
    for (const entry of ranked) {
      await turns.pause();
      hits.push({
        record: entry.record,
        score: -entry.rank,
        snippet:
          (await this.#read(() => this.#search.snippet(query, entry.chunk, terms))) || entry.record.name,
      });
    }
    return progress !== undefined && progress.done < progress.total ? { hits, indexing: progress } : { hits };
  }

  /**
   * Indexes what `session` has not indexed yet, for up to {@link SEARCH_INDEX_WAIT_MS}; true when all is indexed. A
   * session found fully indexed with nothing committed since needs no indexing step. Found so only by a loop
   * that began after the mark was read: a running loop's step may have looked before a commit that came before.
   */
  async #indexFor(session: string): Promise<boolean> {
    const known = this.#indexedSessions;
    const mark = this.#run(() => known.mark());
    if (known.unchanged(session, mark)) return true;
    const fresh = !this.#indexer.running(session);
    const complete = await this.#indexer.indexFor(session, SEARCH_INDEX_WAIT_MS);
    if (complete && fresh) known.found(session, mark);
    return complete;
  }

  /**
   * Runs the session's indexing loop (on the index thread for a store on a file) until the index covers all of
   * the session's text, reporting progress on the way.
   */
  async doIndexSession(session: string, options: IndexSessionOptions = {}): Promise<IndexingProgress> {
    return this.#indexer.indexUntilComplete(
      session,
      () => this.#read(() => this.#search.progress(session)),
      options,
    );
  }

  /**
   * Purges retired contents past their retention, deletes staging areas older than `olderThanMs` (never one whose
   * sink this driver still holds: its writer is only slow), then deletes the side files nothing points at,
   * including orphans a crash left behind (files without a row: a file is only created after its row committed,
   * so one listed here without a row after the listing is garbage). Reports the retired contents it released, the
   * side files it deleted (their size on disk), what is still kept for readers, releasable
   * {@link RETIRED_CONTENT_RETENTION_MS} after its retirement, and what is past that but still queued for
   * un-indexing (released by a sweep after its index rows left).
   */
  async doSweepStaging(olderThanMs: number): Promise<SweepResult> {
    const result = emptySweep();
    const listed = this.#run(() => this.#blobs?.list() ?? []);
    let cutoff = 0;
    await this.#freeing(() => {
      const now = this.#now();
      cutoff = now - RETIRED_CONTENT_RETENTION_MS;
      const due = this.#chunks.purgeRetired(cutoff);
      result.released = { contents: due.contents, bytes: due.bytes };
      result.staging = this.#chunks.sweepStaging(now - olderThanMs, this.#writers.keys());
    }, result);
    if (this.#blobs && listed.length > 0) {
      const known = await this.#read(() => this.#chunks.fileNames());
      addFiles(result, this.#blobs.remove(listed.filter((name) => !known.has(name))));
    }
    const { forReaders, unindexing } = await this.#read(() => this.#chunks.kept(cutoff));
    result.held = {
      contents: forReaders.contents,
      bytes: forReaders.bytes,
      until: forReaders.latest === null ? null : forReaders.latest + RETIRED_CONTENT_RETENTION_MS,
    };
    result.unindexing = unindexing;
    return result;
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    await Promise.all([this.#indexer.stop(), this.#unindexer.stop()]);
    await this.#indexThread?.stop();
    // Nothing can commit a staging area once its driver is closed: those of sinks still open are discarded (a
    // failure leaves one to the next driver's sweep).
    const writers = [...this.#writers.values()];
    this.#writers.clear();
    await Promise.all(writers.map((writer) => writer.release()));
    for (const writer of writers) {
      if (!writer.area.stored) continue;
      try {
        await this.#change(() => this.#chunks.abortStaging(writer.content));
      } catch {
        // left to the sweep
      }
    }
    await this.#checkpointer?.stop();
    this.#closed = true;
    if (this.#ownsDatabase) this.#database.close();
    else this.#restoreBusyTimeout();
  }

  /** Gives a connection passed in its own busy timeout back (a failure leaves the caller's connection as it is). */
  #restoreBusyTimeout(): void {
    if (this.#callerBusyTimeoutMs === undefined) return;
    try {
      this.#database.exec(`PRAGMA busy_timeout = ${this.#callerBusyTimeoutMs}`);
    } catch {
      // a connection the caller closed already
    }
  }

  /**
   * Runs `body` in a write transaction; once it committed, deletes the side files it left without owner or
   * chunk (a failure to delete one is not the caller's: the file is an orphan the next sweep removes), and starts
   * the un-indexing loop when `body` queued index rows for removal.
   */
  async #change<T>(body: () => T, freed?: SweepResult): Promise<T> {
    let garbage: string[] = [];
    let queued = false;
    // What the body noted (side files to delete, un-indexing queued) counts only once its transaction committed.
    const result = await this.#runWhenFree(() => {
      const run = this.#search.noteQueuing(body);
      garbage = this.#chunks.takeGarbageFiles();
      queued = run.queued;
      return run.value;
    });
    if (garbage.length > 0 && this.#blobs) {
      const removed = this.#blobs.remove(garbage);
      if (freed) addFiles(freed, removed);
    }
    if (queued) this.#unindexer.start(UNINDEX_LOOP);
    return result;
  }

  /**
   * {@link #change} for what frees space (deletes, gc). On a full disk even these need new pages (WAL frames)
   * before they free any: when one fails with `STORE_FULL`, the disk reserve is released and it runs once more.
   * On a full or nearly full disk (less room than twice the reserve, or that failure) it purges retired contents
   * without waiting for their readers' grace period, so their side files give the space back at once, and
   * checkpoints the WAL (so the freed pages are reused); the reserve is written again if there is room, and at
   * the latest before the next write or index step (which fail cleanly with `STORE_FULL` when it does not fit).
   * Writes never get here: they never take the reserve's room.
   */
  async #freeing<T>(body: () => T, freed?: SweepResult): Promise<T> {
    let result: T;
    try {
      result = await this.#change(body, freed);
      // Nearly full (less room than twice the reserve): the reserve and what this retired go now, as after a
      // failure, so that a write fits again (the reserve is written back once there is room).
      if (this.#reserve?.lowOnSpace()) {
        this.#reserve.release();
        await this.#releaseRetiredNow(() => undefined, freed);
      }
    } catch (error) {
      if (!ScratchpadError.hasCode(error, 'STORE_FULL') || !this.#reserve?.release()) throw error;
      result = await this.#releaseRetiredNow(body, freed);
    }
    this.#reserve?.ensure();
    return result;
  }

  /**
   * Runs `body` and purges every retired content at once, without waiting for its readers' grace period (a reader
   * then retries on the entry's current state), so the side files this frees give real space back; then
   * checkpoints the WAL so the freed pages are reused.
   */
  async #releaseRetiredNow<T>(body: () => T, freed?: SweepResult): Promise<T> {
    const result = await this.#change(() => {
      const value = body();
      const early = this.#chunks.purgeRetired(this.#now());
      if (freed) {
        freed.released.contents += early.contents;
        freed.released.bytes += early.bytes;
      }
      return value;
    }, freed);
    try {
      this.#database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // a reader holds the WAL: the next checkpoint shrinks it
    }
    return result;
  }

  /** The database steps of staging areas, each one transaction. */
  #stagingHost(inlineBytes: number, compression: ChunkCompression): StagingHost {
    const gone = (content: number, cause?: unknown): Error =>
      new Error(`Staging area ${content} no longer exists: it was aborted, or swept as abandoned by gc.`, {
        cause,
      });
    // A staging area's row exists once a step committed it; before that, no other process can have removed it.
    const ensureRow = (area: StagingArea): void => {
      if (!area.stored) this.#chunks.insertContent(area.content, area.session, area.createdAt, false);
      else if (!this.#chunks.isStaging(area.content)) throw gone(area.content);
    };
    const step = async (area: StagingArea, body: () => void): Promise<void> => {
      try {
        await this.#runWhenFree(() => {
          ensureRow(area);
          body();
        });
        area.stored = true;
      } catch (error) {
        if (area.stored && !(await this.#read(() => this.#chunks.isStaging(area.content)))) {
          throw this.#storeError(gone(area.content, error));
        }
        throw error;
      }
    };
    return {
      inlineBytes,
      compression,
      blobs: this.#blobs,
      insertInline: (area, chunks) =>
        step(area, () => {
          for (const chunk of chunks) this.#chunks.insertChunk(area.content, chunk);
        }),
      createFile: async (area) => {
        let file: BlobFile | undefined;
        await step(area, () => {
          file = this.#chunks.createFile(area.content, this.#now());
        });
        return file as BlobFile;
      },
      insertExternal: (area, chunks) =>
        step(area, () => this.#chunks.insertExternalChunks(area.content, chunks)),
      discard: async (area) => {
        this.#writers.delete(area.content);
        if (!this.#closed && area.stored) await this.#change(() => this.#chunks.abortStaging(area.content));
      },
    };
  }

  #assertOpen(): void {
    if (this.#closed) {
      throw new ScratchpadError('STORE_UNAVAILABLE', `The store ${this.path} is closed.`, {
        hint: 'Open the store again (a closed driver cannot be reused).',
        details: { path: this.path },
      });
    }
  }

  /**
   * Runs a synchronous read, turning SQLite failures into `ScratchpadError`s; while the file is locked elsewhere
   * (WAL recovery, exclusive locking mode) it tries again without blocking the event loop, up to the busy timeout.
   */
  async #read<T>(step: () => T): Promise<T> {
    this.#assertOpen();
    try {
      return await untilNotBusy(step, this.#busyTimeoutMs, { beforeRetry: () => this.#assertOpen() });
    } catch (error) {
      throw this.#storeError(error);
    }
  }

  /** Runs a synchronous database step, turning SQLite failures into `ScratchpadError`s. */
  #run<T>(step: () => T): T {
    this.#assertOpen();
    try {
      return step();
    } catch (error) {
      throw this.#storeError(error);
    }
  }

  /**
   * Runs `body` in a write transaction once the lock is free, waiting for it without blocking the event loop up
   * to the busy timeout (then `STORE_UNAVAILABLE`, as a blocking wait would).
   */
  async #runWhenFree<T>(body: () => T): Promise<T> {
    this.#assertOpen();
    try {
      return await this.#transaction.runWhenFree(body);
    } catch (error) {
      throw this.#storeError(error);
    }
  }

  /**
   * One step of an indexing or un-indexing loop: on the index thread while it runs, else `onLoop` on the event
   * loop. A write of this connection waiting for the lock goes first, and tries again as soon as the step ends.
   */
  async #backgroundStep(
    step: { kind: 'index'; session: string } | { kind: 'unindex' },
    onLoop: () => Promise<number>,
  ): Promise<number> {
    await this.#transaction.whenNoWriterWaits();
    this.#assertOpen();
    // Index rows take room like a write does; un-indexing frees it.
    if (step.kind === 'index') this.#reserve?.assertRoomForWrite(this.path);
    const thread = this.#indexThread;
    if (thread?.ready()) {
      try {
        return await thread.step(step);
      } catch (error) {
        if (!(error instanceof IndexThreadGone)) throw this.#storeError(error);
      } finally {
        this.#transaction.lockReleased();
      }
    }
    const started = performance.now();
    try {
      return await onLoop();
    } finally {
      this.#loopStepMs += performance.now() - started;
      if (thread && this.#loopStepMs >= INDEX_THREAD_AFTER_MS) thread.start();
    }
  }

  /** A failure as the caller's `ScratchpadError` (a closed store says so, whatever SQLite said). */
  #storeError(error: unknown): unknown {
    if (this.#closed && !ScratchpadError.isInstance(error)) {
      try {
        this.#assertOpen();
      } catch (closed) {
        return closed;
      }
    }
    return toStoreError(error, this.path, this.#busyTimeoutMs);
  }
}

function changedWhileReading(record: EntryRecord): ScratchpadError {
  return new ScratchpadError(
    'VERSION_CONFLICT',
    `"${record.name}" changed while it was being read: version ${record.version} is no longer stored.`,
    {
      hint: 'Read it again to get the current version.',
      details: { name: record.name, version: record.version, changedWhileReading: true },
    },
  );
}

/** Adds deleted side files to a sweep's tally. */
function addFiles(result: SweepResult, removed: { count: number; bytes: number }): void {
  result.files.count += removed.count;
  result.files.bytes += removed.bytes;
}

/** The connection's busy timeout in milliseconds, or `undefined` when it cannot be read. */
function busyTimeoutOf(database: SqliteDatabase): number | undefined {
  try {
    const value = Object.values((database.prepare('PRAGMA busy_timeout').get() ?? {}) as object)[0];
    return typeof value === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The side-file directory of a database at `path`, or `undefined` for a database that is not a file. */
function blobDirectoryOf(path: string): BlobDirectory | undefined {
  if (path === '' || path === ':memory:' || path.startsWith('file:')) return undefined;
  try {
    return new BlobDirectory(path);
  } catch {
    return undefined;
  }
}

/** What a staging writer hands its commit: inline chunks with their bytes, and index rows of side-file chunks. */
interface StagedRows {
  inline: StoredChunk[];
  external: ExternalChunk[];
}

/** Opens (or creates) a SQLite store. */
export function createSqliteDriver(config: SqliteDriverConfig): SqliteDriver {
  return new SqliteDriver(config);
}
