import { createHash } from 'node:crypto';
import type { Chunk, ChunkAxis } from '../../core/chunk.js';
import type { EntryRecord, SessionInfo } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { queryTerms } from '../../core/query-terms.js';
import { BackgroundIndexer, SEARCH_INDEX_WAIT_MS } from '../background-indexer.js';
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
import { emptySweep, isExpectedEntry, newStagingId } from '../driver-helpers.js';
import { copyChunkAt, copyChunkRows, isCopyableContentId } from './copy-chunk-rows.js';
import { createPgPool, queryTimeout } from './load-pg.js';
import { locateChunkSql } from './locate-chunk-sql.js';
import { describeTarget, type PostgresTarget, toStoreError } from './postgres-errors.js';
import { postgresListSql } from './postgres-list-query.js';
import { migrate } from './postgres-migrations.js';
import type {
  PostgresClient,
  PostgresPool,
  PostgresQueryable,
  PostgresQueryResult,
} from './postgres-pool.js';
import {
  assertStorable,
  ENTRY_COLUMNS,
  entryColumns,
  entryPlaceholders,
  entryValues,
  toChunk,
  toChunkInfo,
  toEntryRecord,
  toSessionInfo,
} from './postgres-records.js';
import { DEFAULT_SCHEMA, quoteSchema } from './postgres-schema.js';
import { indexingProgress, PostgresIndexing, searchSession } from './postgres-search.js';
import {
  appendStaged,
  chunkInserts,
  dropStaging,
  insertChunks,
  openStaging,
  purgeRetired,
  retiredContents,
  takeStaging,
  writeStagedChunks,
} from './postgres-staging.js';
import { StagingBuffer } from './postgres-staging-buffer.js';
import { type Rollback, withTransaction } from './postgres-transaction.js';
import { NEEDS_READ_COMMITTED, writeEntry } from './postgres-write-entry.js';

/** The entry statements' parameter holding the content id (the chunks they insert belong to it). */
const CONTENT_ID_PARAM = `$${ENTRY_COLUMNS.indexOf('content_id') + 1}`;

/** Options for {@link createPostgresDriver}. */
export interface PostgresDriverConfig {
  /** `postgres://user:password@host:port/database`; without it (and without `pool`), `pg` reads `PGHOST` etc. */
  connectionString?: string;
  /** A pool you already have (`pg.Pool` or the same shape). The driver ends it on `close()`. */
  pool?: PostgresPool;
  /** Schema holding the tables (default `scratchpad`); created with them on first use. */
  schema?: string;
  /** Clock in epoch milliseconds (session times, staging age). */
  now?: () => number;
  /** Connections in the pool the driver creates (default 10). */
  max?: number;
  /**
   * How long content that a replace or delete superseded stays readable (default 60 s), so a reader that
   * resolved the entry just before can still read the version it resolved. Deleted after that.
   */
  readGraceMs?: number;
  /**
   * How long a statement may run, in milliseconds (default 60 s; a whole number >= 1, else `CONFIG_INVALID`).
   * The server cancels a statement that runs longer (`statement_timeout`): the call fails with
   * `STORE_UNAVAILABLE` and nothing it did is kept. A server or network that does not answer at all fails the
   * call a quarter of that later (1 to 5 s more), and its connection is dropped: a partition does not hang the
   * caller, but whether that statement took effect is then unknown. Opening a connection may take as long, at
   * most 10 s. Schema migrations run without it, and wait for another process's migration as long as it takes,
   * but try to lock their tables, which other clients' transactions may hold, giving up within this long of the
   * opening's start (one try at least; then `STORE_UNAVAILABLE`, nothing changed). Apart from that, only for the
   * pool the driver creates; a pool you pass keeps its own settings.
   *
   * The driver's own pool also prepares its entry lookup as a named statement on each connection. Behind a
   * pooler in transaction mode, use one that keeps prepared statements per client (PgBouncer 1.21+ with
   * `max_prepared_statements`), or pass your own pool, which gets unnamed statements only.
   */
  queryTimeoutMs?: number;
}

/**
 * The PostgreSQL backend, for teams and fleets that share one store. Content is staged in the writer's memory
 * up to 64 chunks / 1 MiB, beyond that in batches outside any transaction. A commit locks the session row, then
 * the entry row (`FOR UPDATE`) for compare-and-set, and moves staged chunks under the entry: for a content still
 * whole in memory (a small write) all of it is one call of the server-side function `write_entry` in
 * autocommit, one round trip (postgres-write-entry.ts); otherwise one short explicit transaction. Locking the session first serializes
 * commits within a session, which keeps every lock taken in one order (session, entry) and so deadlock-free,
 * also against deleting the session. Content a replace or delete supersedes is retired, not deleted at once:
 * other processes may be reading it; it is purged after `readGraceMs`. Create it with {@link createPostgresDriver}.
 */
export class PostgresDriver implements StoreDriver {
  readonly backend = 'postgres';
  /** Replaced and deleted content is retired, kept for readers until a sweep past its wait releases it. */
  readonly keepsContentForReaders = true;
  /**
   * 64 KiB: the server reads a chunk's `bytea` whole (it fetches every TOAST row of the value and decompresses
   * it), so a slice read costs its chunk, not its slice. A 2,000-character range of a 100 MiB log, 640 reads in
   * alternated rounds (decision 010): median 1.62 ms with 256 KiB chunks, 1.09 with 128, 0.99 with 64, 0.81
   * with 32, 0.67 with 16 KiB; grep of the entry took 420, 283, 352, 466, 670 ms (batches of 16 chunks, fewer
   * bytes each, more round trips) and its write 1.7–2.2 s either way.
   */
  readonly preferredChunkSize = 64 * 1024;
  /** The schema the tables live in. */
  readonly schema: string;
  /** The name of the entry lookup's prepared statement: one per schema (a connection keeps it by name). */
  readonly #entryStatement: string;
  readonly #pool: PostgresPool;
  readonly #s: string;
  readonly #now: () => number;
  readonly #target: PostgresTarget;
  readonly #readGraceMs: number;
  /**
   * How another thread connects to this store to fetch chunk bytes itself (`doChunkSources`); `undefined` when
   * the caller gave the pool, whose settings the driver cannot copy.
   */
  readonly #threadConnection: ThreadConnection | undefined;
  /** Computes the tsvectors of a searched session's chunks, a few statements at a time, after the search answered. */
  readonly #indexer: BackgroundIndexer;
  /** Staging areas whose sink this driver holds (neither committed nor aborted): never swept. */
  readonly #openStaging = new Map<string, StagingBuffer>();
  #lastPurge = Number.NEGATIVE_INFINITY;
  #closed = false;
  /** An autocommit statement runs under READ COMMITTED (the server's default); false once it did not. */
  #autocommitReadCommitted = true;

  /** Wraps a pool whose schema is already migrated; use {@link createPostgresDriver} instead. */
  constructor(
    pool: PostgresPool,
    config: {
      schema?: string;
      now?: () => number;
      target?: PostgresTarget;
      readGraceMs?: number;
      threadConnection?: ThreadConnection;
    } = {},
  ) {
    this.#pool = pool;
    this.schema = config.schema ?? DEFAULT_SCHEMA;
    this.#entryStatement = `scratchpad_entry_${createHash('sha256').update(this.schema).digest('hex').slice(0, 32)}`;
    this.#s = quoteSchema(this.schema);
    this.#now = config.now ?? Date.now;
    this.#target = config.target ?? describeTarget(undefined);
    this.#readGraceMs = readGrace(config.readGraceMs);
    this.#threadConnection = config.threadConnection;
    const indexing = new PostgresIndexing(this.#pool, this.#s);
    this.#indexer = new BackgroundIndexer((session) => this.#guard(() => indexing.step(session)));
  }

  async doStage(session: string): Promise<ContentSink> {
    const stagingId = newStagingId();
    const buffer = new StagingBuffer();
    this.#openStaging.set(stagingId, buffer);
    const gone = () =>
      new Error(`Staging area ${stagingId} no longer exists (it was committed, aborted or swept).`);
    return {
      stagingId,
      write: async (chunk) => {
        if (buffer.closed) throw gone();
        if (!buffer.add(chunk)) return;
        if (buffer.opened) {
          const stored = await this.#guard(() =>
            writeStagedChunks(this.#pool, this.#s, stagingId, buffer.chunks),
          );
          if (!stored) throw gone();
        } else {
          await this.#guard(() =>
            openStaging(this.#pool, this.#s, stagingId, session, this.#now(), buffer.chunks),
          );
          buffer.opened = true;
        }
        buffer.clear();
      },
      abort: async () => {
        if (buffer.closed) return;
        buffer.closed = true;
        buffer.clear();
        this.#openStaging.delete(stagingId);
        if (buffer.opened) await this.#guard(() => dropStaging(this.#pool, this.#s, 'id = $1', [stagingId]));
      },
    };
  }

  async doCommit(request: CommitRequest): Promise<CommitResult> {
    assertStorable(request.record);
    // A content this driver's writer still holds whole (never opened a staging row) is written by one call
    // of write_entry: one round trip, one durable commit. Everything else takes the explicit transaction.
    const buffer = request.mode === 'metadata' ? undefined : this.#openStaging.get(request.stagingId);
    const result =
      request.mode === 'replace' && buffer?.opened === false
        ? await this.#writeWhole(request, buffer.chunks)
        : await this.#commitInTransaction(request);
    if (result.ok && request.mode !== 'metadata') {
      this.#openStaging.delete(request.stagingId);
      if (buffer) {
        buffer.closed = true;
        buffer.clear();
      }
    }
    if (result.ok) await this.#purge(false);
    return result;
  }

  /** A replace whose chunks are all in memory, by `write_entry` (see postgres-write-entry.ts). */
  async #writeWhole(
    request: Extract<CommitRequest, { mode: 'replace' }>,
    chunks: readonly Chunk[],
  ): Promise<CommitResult> {
    const record: EntryRecord = {
      ...request.record,
      contentId: request.stagingId,
      chunkCount: chunks.length,
    };
    const expected = { version: request.expectedVersion, id: request.expectedId };
    const write = (db: PostgresQueryable) => writeEntry(db, this.#s, record, expected, this.#now(), chunks);
    const outcome = await this.#guard(async () => {
      if (this.#autocommitReadCommitted) {
        try {
          return await write(this.#pool);
        } catch (error) {
          if ((error as { code?: unknown } | null)?.code !== NEEDS_READ_COMMITTED) throw error;
          // The server's default isolation is stricter: from now on, an explicit READ COMMITTED transaction.
          this.#autocommitReadCommitted = false;
        }
      }
      return withTransaction(this.#pool, async (client, rollback) => {
        const written = await write(client);
        return written.ok ? written : rollback(written);
      });
    });
    return outcome.ok ? { ok: true, record, previous: outcome.previous } : outcome;
  }

  /** A commit in an explicit transaction: appends, metadata changes, contents with a staging row. */
  async #commitInTransaction(request: CommitRequest): Promise<CommitResult> {
    return this.#transaction(async (client, rollback) => {
      const { session, name } = request.record;
      await client.query(
        `INSERT INTO ${this.#s}.sessions (id, created_at, updated_at) VALUES ($1, $2, $2)
         ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at`,
        [session, this.#now()],
      );
      const current = await this.#entry(client, session, name, 'FOR UPDATE');
      if (!isExpectedEntry(current, request)) {
        return rollback<CommitResult>({ ok: false, current });
      }
      const { chunks, ...content } = await this.#attachContent(client, request, current);
      const record: EntryRecord = { ...request.record, ...content };
      if (current) {
        const superseded = current.contentId === record.contentId ? null : current.contentId;
        const [sessionAt, nameAt, supersededAt, nowAt] = [1, 2, 3, 4].map(
          (n) => `$${ENTRY_COLUMNS.length + n}`,
        );
        const values = [...entryValues(record), session, name, superseded, this.#now()];
        // The chunks of a small content ride in the same statement (one round trip less).
        const inserts = chunkInserts(this.#s, chunks, values, '', CONTENT_ID_PARAM);
        await client.query(
          `WITH retired AS (
             INSERT INTO ${this.#s}.retired (content_id, retired_at) SELECT ${supersededAt}::text, ${nowAt}::bigint WHERE ${supersededAt}::text IS NOT NULL
           )${inserts}
           UPDATE ${this.#s}.entries SET (${entryColumns()}) = ROW(${entryPlaceholders()}) WHERE session = ${sessionAt} AND name = ${nameAt}`,
          values,
        );
      } else {
        const values = [...entryValues(record)];
        const inserts = chunkInserts(this.#s, chunks, values, '', CONTENT_ID_PARAM);
        // Two creators of one name: the second finds the first's row here and fails its compare-and-set (its
        // chunks, inserted by the same statement, go with the rollback).
        const inserted = await client.query(
          `WITH nothing AS (SELECT 1)${inserts}
           INSERT INTO ${this.#s}.entries (${entryColumns()}) VALUES (${entryPlaceholders()})
           ON CONFLICT (session, name) DO NOTHING`,
          values,
        );
        if (inserted.rowCount === 0) {
          return rollback<CommitResult>({ ok: false, current: await this.#entry(client, session, name) });
        }
      }
      return { ok: true, record: { ...record }, previous: current } satisfies CommitResult;
    });
  }

  async doGetEntry(session: string, name: string): Promise<EntryRecord | undefined> {
    if (!this.#threadConnection) return this.#guard(() => this.#entry(this.#pool, session, name));
    // Our own `pg.Pool`: a named statement, parsed and planned once per connection (every read and most writes
    // start here; 0.10 ms a lookup against 0.15 unnamed, alternated on one connection).
    const result = await this.#guard(() =>
      (this.#pool as unknown as NamedQueryPool).query({
        name: this.#entryStatement,
        text: `SELECT ${entryColumns()} FROM ${this.#s}.entries WHERE session = $1 AND name = $2`,
        values: [session, name],
      }),
    );
    return result.rows[0] ? toEntryRecord(result.rows[0]) : undefined;
  }

  async doGetEntryById(id: string): Promise<EntryRecord | undefined> {
    const result = await this.#query(`SELECT ${entryColumns()} FROM ${this.#s}.entries WHERE id = $1`, [id]);
    return result.rows[0] ? toEntryRecord(result.rows[0]) : undefined;
  }

  async doListEntries(query: ListQuery): Promise<EntryRecord[]> {
    const { sql, values } = postgresListSql(this.#s, query);
    return (await this.#query(sql, values)).rows.map(toEntryRecord);
  }

  async doLocateChunk(record: EntryRecord, axis: ChunkAxis, position: number): Promise<number> {
    const result = await this.#query(locateChunkSql(this.#s, axis, '$1', '$2', '$3'), [
      record.contentId,
      position,
      record.chunkCount,
    ]);
    return Number(result.rows[0]?.seq ?? 0);
  }

  /**
   * The chunk holding `position` on `axis`, with its bytes: on the driver's own pool one binary `COPY` (a
   * slice read's round trips go from three to one, see `copyChunkAt`), else a locate and a read.
   */
  async doReadChunkAt(record: EntryRecord, axis: ChunkAxis, position: number): Promise<Chunk | undefined> {
    if (this.#threadConnection && record.chunkCount > 0 && isCopyableContentId(record.contentId)) {
      return this.#guard(() =>
        copyChunkAt(this.#pool, this.#s, record.contentId, record.chunkCount, axis, position),
      );
    }
    const seq = await this.doLocateChunk(record, axis, position);
    return (await this.doReadChunks(record, seq, seq + 1))[0];
  }

  async doReadChunks(record: EntryRecord, seqStart: number, seqEnd: number): Promise<Chunk[]> {
    const start = Math.max(0, seqStart);
    const end = Math.min(seqEnd, record.chunkCount);
    if (start >= end) return [];
    if (this.#threadConnection) {
      // Our own pg pool: the rows, then their bytes without hex (copy-chunk-rows.ts). A row gone meanwhile (the
      // content was purged) leaves its chunk out, as the join below would.
      const result = await this.#query(
        `SELECT seq, byte_start, char_start, line_start, bytes, chars, newlines, data_id
         FROM ${this.#s}.chunks WHERE content_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`,
        [record.contentId, start, end],
      );
      const ids = result.rows.map((row) => String(row.data_id));
      const found = await this.#guard(() => copyChunkRows(this.#pool, this.#s, ids));
      return result.rows.flatMap((row, index) => {
        const data = found.get(ids[index] as string);
        return data ? [{ ...toChunkInfo(row), data }] : [];
      });
    }
    const result = await this.#query(
      `SELECT c.seq, c.byte_start, c.char_start, c.line_start, c.bytes, c.chars, c.newlines, d.data
       FROM ${this.#s}.chunks c JOIN ${this.#s}.chunk_data d ON d.id = c.data_id
       WHERE c.content_id = $1 AND c.seq >= $2 AND c.seq < $3 ORDER BY c.seq`,
      [record.contentId, start, end],
    );
    return result.rows.map(toChunk);
  }

  /**
   * Where the bytes of chunks `[seqStart, seqEnd)` are: their `chunk_data` rows, which grep's worker fetches on a
   * connection of its own, so the event loop neither receives nor decodes the bytes (it read 16 chunks as 8 MiB
   * of hex per batch before). With a pool the caller gave, the chunks themselves (the worker could not connect).
   */
  async doChunkSources(record: EntryRecord, seqStart: number, seqEnd: number): Promise<ChunkSource[]> {
    const connection = this.#threadConnection;
    if (!connection) return this.doReadChunks(record, seqStart, seqEnd);
    const start = Math.max(0, seqStart);
    const end = Math.min(seqEnd, record.chunkCount);
    if (start >= end) return [];
    const result = await this.#query(
      `SELECT seq, byte_start, char_start, line_start, bytes, chars, newlines, data_id
       FROM ${this.#s}.chunks WHERE content_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`,
      [record.contentId, start, end],
    );
    return result.rows.map((row) => {
      const info = toChunkInfo(row);
      return {
        ...info,
        codec: 0,
        storedBytes: info.bytes,
        postgres: { ...connection, schema: this.schema, dataId: String(row.data_id) },
      };
    });
  }

  async doDeleteEntry(record: EntryRecord): Promise<boolean> {
    const result = await this.#query(
      `WITH gone AS (
         DELETE FROM ${this.#s}.entries WHERE session = $1 AND name = $2 AND id = $3 AND version = $4 RETURNING content_id
       ),
       retired AS (INSERT INTO ${this.#s}.retired (content_id, retired_at) SELECT content_id, $5 FROM gone)
       SELECT count(*) AS deleted FROM gone`,
      [record.session, record.name, record.id, record.version, this.#now()],
    );
    const deleted = Number(result.rows[0]?.deleted ?? 0) > 0;
    if (deleted) await this.#purge(false);
    return deleted;
  }

  async doListSessions(): Promise<SessionInfo[]> {
    const result = await this.#query(
      `SELECT s.id, s.created_at, s.updated_at, count(e.name) AS entries, coalesce(sum(e.bytes), 0) AS bytes
       FROM ${this.#s}.sessions s LEFT JOIN ${this.#s}.entries e ON e.session = s.id
       GROUP BY s.id ORDER BY s.id`,
    );
    return result.rows.map(toSessionInfo);
  }

  async doDeleteSession(session: string): Promise<{ entries: number; bytes: number } | undefined> {
    const deleted = await this.#transaction(async (client) => {
      const locked = await client.query(`SELECT id FROM ${this.#s}.sessions WHERE id = $1 FOR UPDATE`, [
        session,
      ]);
      if (locked.rowCount === 0) return undefined;
      const gone = await client.query(
        `WITH gone AS (DELETE FROM ${this.#s}.entries WHERE session = $1 RETURNING content_id, bytes),
         retired AS (INSERT INTO ${this.#s}.retired (content_id, retired_at) SELECT content_id, $2 FROM gone)
         SELECT count(*) AS entries, coalesce(sum(bytes), 0) AS bytes FROM gone`,
        [session, this.#now()],
      );
      await client.query(`DELETE FROM ${this.#s}.sessions WHERE id = $1`, [session]);
      return { entries: Number(gone.rows[0]?.entries ?? 0), bytes: Number(gone.rows[0]?.bytes ?? 0) };
    });
    if (deleted) await this.#purge(false);
    return deleted;
  }

  async doStats(): Promise<StoreTotals> {
    const result = await this.#query(
      `SELECT (SELECT count(*) FROM ${this.#s}.sessions) AS sessions, count(*) AS entries,
         coalesce(sum(bytes), 0) AS bytes, coalesce(sum(bytes) FILTER (WHERE pinned), 0) AS pinned_bytes
       FROM ${this.#s}.entries`,
    );
    const row = result.rows[0] ?? {};
    return {
      sessions: Number(row.sessions ?? 0),
      entries: Number(row.entries ?? 0),
      bytes: Number(row.bytes ?? 0),
      pinnedBytes: Number(row.pinned_bytes ?? 0),
    };
  }

  /**
   * Searches the session's indexed chunks. Indexing runs in the background (`BackgroundIndexer`, one committed
   * statement per few chunks, so a killed process leaves what it indexed and the next search goes on from there);
   * a search waits for it at most {@link SEARCH_INDEX_WAIT_MS}, then answers from the indexed part with
   * `indexing: {done, total}` while indexing goes on.
   */
  async doSearch(request: DriverSearchRequest): Promise<DriverSearchResult> {
    if (queryTerms(request.query).length === 0 || request.limit <= 0) return { hits: [] };
    await this.#indexer.indexFor(request.session, SEARCH_INDEX_WAIT_MS);
    return this.#guard(async () => {
      // Asked even when this driver's loop finished (chunks another process was indexing were skipped), and
      // before the search: indexing that ends between the two must not make a search of the part indexed
      // before it look complete.
      const progress = await indexingProgress(this.#pool, this.#s, request.session);
      const hits = await searchSession(this.#pool, this.#s, request);
      return progress.done < progress.total ? { hits, indexing: progress } : { hits };
    });
  }

  /**
   * Runs the session's indexing loop until every chunk of it has its tsvector (chunks another process is indexing
   * included: their progress is read from the table), reporting progress on the way.
   */
  async doIndexSession(session: string, options: IndexSessionOptions = {}): Promise<IndexingProgress> {
    return this.#indexer.indexUntilComplete(
      session,
      () => this.#guard(() => indexingProgress(this.#pool, this.#s, session)),
      options,
    );
  }

  /**
   * Drops abandoned staging areas and purges retired content past `readGraceMs`; reports them, and the retired
   * content still kept for readers. PostgreSQL keeps everything in tables, so `files` stays empty.
   */
  async doSweepStaging(olderThanMs: number): Promise<SweepResult> {
    const result = emptySweep();
    // Areas whose sink this driver holds are never swept (their writer is only slow). SKIP LOCKED: areas being
    // written (or swept by another process) are left for the next sweep.
    result.staging = await this.#guard(() =>
      dropStaging(
        this.#pool,
        this.#s,
        `id IN (SELECT id FROM ${this.#s}.staging WHERE created_at <= $1 AND NOT (id = ANY($2::text[]))
                ORDER BY id FOR UPDATE SKIP LOCKED)`,
        [this.#now() - olderThanMs, [...this.#openStaging.keys()]],
      ),
    );
    this.#lastPurge = Number.NEGATIVE_INFINITY;
    result.released = await this.#purge(true);
    const kept = await this.#guard(() => retiredContents(this.#pool, this.#s));
    result.held = {
      contents: kept.contents,
      bytes: kept.bytes,
      until: kept.latest === null ? null : kept.latest + this.#readGraceMs,
    };
    return result;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#indexer.stop();
    // Nothing can commit a staging area once its driver is closed: those of sinks still open are discarded (a
    // failure leaves them to the next driver's sweep).
    const open = [...this.#openStaging].filter(([, buffer]) => buffer.opened).map(([id]) => id);
    for (const buffer of this.#openStaging.values()) buffer.closed = true;
    this.#openStaging.clear();
    if (open.length > 0) {
      await dropStaging(this.#pool, this.#s, 'id = ANY($1::text[])', [open]).catch(() => undefined);
    }
    await this.#pool.end();
  }

  /**
   * Inside a commit: where the committed record's content lives, after moving staged chunks there; for a
   * replace, the buffered chunks the entry write must still insert under it.
   */
  async #attachContent(
    client: PostgresClient,
    request: CommitRequest,
    current: EntryRecord | undefined,
  ): Promise<{ contentId: string; chunkCount: number; chunks: readonly Chunk[] }> {
    if (request.mode === 'metadata') {
      const { contentId, chunkCount } = current as EntryRecord;
      return { contentId, chunkCount, chunks: [] };
    }
    // A staging area this driver's writer never had to open has no row and no chunks in the database yet: its
    // chunks go in here, in the commit's transaction (after the version check, so a lost compare-and-set
    // writes nothing). An opened one (or one of another driver) must still exist: its row is taken.
    const buffer = this.#openStaging.get(request.stagingId);
    const staged = buffer?.opened === false ? 0 : await takeStaging(client, this.#s, request.stagingId);
    if (staged === undefined) {
      throw new Error(`Staging area ${request.stagingId} no longer exists (it was aborted or swept).`);
    }
    const buffered = buffer?.chunks ?? [];
    if (request.mode === 'replace') {
      return { contentId: request.stagingId, chunkCount: staged + buffered.length, chunks: buffered };
    }
    if (buffered.length > 0) await insertChunks(client, this.#s, request.stagingId, buffered);
    const { contentId } = current as EntryRecord;
    const chunkCount = await appendStaged(client, this.#s, contentId, request.keepChunks, request.stagingId);
    return { contentId, chunkCount, chunks: [] };
  }

  /**
   * Deletes retired content past its grace period, at most every quarter grace period per driver. After a
   * write it is housekeeping: a failure must not report the write, which did happen, as failed; the next
   * purge (or `gc`, which reports failures) deletes what this one could not.
   */
  async #purge(reportFailure: boolean): Promise<{ contents: number; bytes: number }> {
    const now = this.#now();
    if (now - this.#lastPurge < this.#readGraceMs / 4) return { contents: 0, bytes: 0 };
    this.#lastPurge = now;
    try {
      return await this.#guard(() => purgeRetired(this.#pool, this.#s, now - this.#readGraceMs));
    } catch (error) {
      this.#lastPurge = Number.NEGATIVE_INFINITY;
      if (reportFailure) throw error;
      return { contents: 0, bytes: 0 };
    }
  }

  async #entry(
    db: PostgresPool | PostgresClient,
    session: string,
    name: string,
    lock = '',
  ): Promise<EntryRecord | undefined> {
    const result = await db.query(
      `SELECT ${entryColumns()} FROM ${this.#s}.entries WHERE session = $1 AND name = $2 ${lock}`,
      [session, name],
    );
    return result.rows[0] ? toEntryRecord(result.rows[0]) : undefined;
  }

  #query(sql: string, values?: unknown[]): Promise<PostgresQueryResult> {
    return this.#guard(() => this.#pool.query(sql, values));
  }

  #transaction<T>(body: (client: PostgresClient, rollback: Rollback) => Promise<T>): Promise<T> {
    return this.#guard(() => withTransaction(this.#pool, body));
  }

  async #guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw toStoreError(error, this.#target);
    }
  }
}

/** A `pg.Pool`'s query with a statement name (prepared once per connection). */
/** How another thread (grep's worker) connects like the driver's own pool. */
interface ThreadConnection {
  connectionString?: string;
  queryTimeoutMs?: number;
}

interface NamedQueryPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<PostgresQueryResult>;
}

/**
 * Opens the PostgreSQL store: uses `config.pool` or creates a `pg.Pool` (importing the optional `pg` package
 * only now), then creates or upgrades the schema and tables. Throws `STORE_UNAVAILABLE` naming the server and
 * database when it cannot connect, log in, or find the database, and when `pg` is not installed.
 */
export async function createPostgresDriver(config: PostgresDriverConfig = {}): Promise<PostgresDriver> {
  const schema = config.schema ?? DEFAULT_SCHEMA;
  const quoted = quoteSchema(schema);
  readGrace(config.readGraceMs);
  const target = config.pool ? poolTarget(config.pool) : describeTarget(config.connectionString);
  const queryTimeoutMs = config.pool ? undefined : queryTimeout(config.queryTimeoutMs);
  const connection =
    config.connectionString === undefined ? {} : { connectionString: config.connectionString };
  const pool =
    config.pool ??
    (await createPgPool({
      ...connection,
      ...(config.max === undefined ? {} : { max: config.max }),
      queryTimeoutMs,
    }));
  const openMigrationPool = config.pool
    ? undefined
    : () => createPgPool({ ...connection, max: 1, queryTimeoutMs: null });
  try {
    await migrate(pool, schema, quoted, target, {
      lockWaitMs: queryTimeout(config.queryTimeoutMs),
      ...(openMigrationPool ? { openMigrationPool } : {}),
    });
  } catch (error) {
    // A pool we made is ours to end; a caller's pool stays theirs until the driver exists.
    if (!config.pool) await pool.end().catch(() => {});
    throw toStoreError(error, target);
  }
  return new PostgresDriver(pool, {
    schema,
    target,
    // The pool is ours: a grep thread can open a connection like it (pg reads the same environment there).
    ...(config.pool
      ? {}
      : {
          threadConnection: { ...connection, queryTimeoutMs },
        }),
    ...(config.now ? { now: config.now } : {}),
    ...(config.readGraceMs === undefined ? {} : { readGraceMs: config.readGraceMs }),
  });
}

function readGrace(readGraceMs: number | undefined): number {
  const grace = readGraceMs ?? 60_000;
  if (!Number.isFinite(grace) || grace < 0) {
    throw new ScratchpadError(
      'CONFIG_INVALID',
      `readGraceMs must be a number of milliseconds >= 0, got ${String(readGraceMs)}.`,
      {
        hint: 'Leave it out for the default of 60 seconds.',
      },
    );
  }
  return grace;
}

/** Where a caller's pool points, when it says (`pg.Pool` keeps its options); only for error messages. */
function poolTarget(pool: PostgresPool): PostgresTarget {
  const options = (pool as { options?: Record<string, unknown> }).options ?? {};
  const target = describeTarget(
    typeof options.connectionString === 'string' ? options.connectionString : undefined,
  );
  return {
    host: typeof options.host === 'string' ? options.host : target.host,
    port: typeof options.port === 'number' ? options.port : target.port,
    database: typeof options.database === 'string' ? options.database : target.database,
    user: typeof options.user === 'string' ? options.user : target.user,
  };
}
