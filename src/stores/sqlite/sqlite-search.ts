import type { EntryRecord } from '../../core/entry.js';
import { unsegmentScripts } from '../../core/script-segments.js';
import type { IndexingProgress } from '../driver.js';
import type { BlobDirectory } from './blob-directory.js';
import { wordSnippetOfBytes } from './byte-snippet.js';
import { CHUNK_PLACE_COLUMNS, type ChunkPlace, readChunkBytes } from './chunk-text-function.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';
import { ENTRY_COLUMNS, type EntryRow, toEntryRecord } from './sqlite-records.js';
import { CHUNK_TEXT, INDEX_TEXT } from './sqlite-schema.js';

/** The joins {@link CHUNK_TEXT} needs to find a chunk's bytes, inline or in a side file. */
const CHUNK_BYTES_JOINS =
  'LEFT JOIN chunk_data ON chunk_data.id = chunks.id LEFT JOIN blob_files ON blob_files.id = chunks.file';

/** Chunks looked up per pending query; a step indexes (or un-indexes) as many of them as fit in its time slice. */
const INDEX_BATCH = 32;
/** BM25 weights of the `name` and `body` columns: a word in an entry's name says more than one in its text. */
const NAME_WEIGHT = 2;
const BODY_WEIGHT = 1;

/** One ranked entry: its record, its BM25 rank (lower is better) and its best-matching chunk. */
export interface RankedEntry {
  record: EntryRecord;
  rank: number;
  chunk: number;
}

/**
 * The FTS5 index over chunk text and entry names. Writes never touch it: a search indexes the chunks of its
 * session that are not indexed yet (`chunks.indexed = 0`) in short steps ({@link SearchIndex.indexChunks}, one
 * transaction each, on the index thread of a file-backed store, else between turns of the event loop), so writing a 1 GB entry costs nothing here
 * until someone searches it, and indexing it never holds the loop or the write lock for long.
 *
 * Deleting or replacing indexed content only queues it (`search_unindex`, in the same transaction): the index is
 * external-content, so removing a chunk's row replays its indexed text (read again from the chunk's bytes, inline
 * or in a side file, through `scratchpad_chunk_body`) and name, which for a 1 GB entry took seconds. The queue is
 * worked off in short steps too ({@link SearchIndex.unindexChunks}); a crash leaves it for the next driver to
 * resume. Meanwhile searches never show the queued chunks (ranking joins each chunk to the live entry owning
 * its content, and queued contents belong to none), and a queued content is not purged before its rows left.
 * The `search_source` view shows exactly the indexed chunks (live and queued), so FTS5 reads snippets through it
 * and its `integrity-check` holds.
 */
export class SearchIndex {
  readonly #pending: SqliteStatement;
  readonly #setSeam: SqliteStatement;
  readonly #chunkPlace: SqliteStatement;
  readonly #indexChunk: SqliteStatement;
  readonly #markIndexed: SqliteStatement;
  readonly #queueContent: SqliteStatement;
  readonly #queueSession: SqliteStatement;
  readonly #hasIndexedFrom: SqliteStatement;
  readonly #detachChunks: SqliteStatement;
  readonly #moveChunks: SqliteStatement;
  readonly #queueDetached: SqliteStatement;
  readonly #anyQueued: SqliteStatement;
  readonly #nextQueued: SqliteStatement;
  readonly #queuedChunks: SqliteStatement;
  readonly #unindexChunk: SqliteStatement;
  readonly #markUnindexed: SqliteStatement;
  readonly #dequeue: SqliteStatement;
  /** Set when the body {@link noteQueuing} runs queued un-indexing. */
  #queued = false;
  readonly #progress: SqliteStatement;
  readonly #rank: SqliteStatement;
  readonly #rankAll: SqliteStatement;
  readonly #lastChunk: SqliteStatement;
  readonly #matches: SqliteStatement;
  readonly #snippet: SqliteStatement;
  readonly #chunkPlace2: SqliteStatement;
  readonly #blobs: BlobDirectory | undefined;

  constructor(database: SqliteDatabase, blobs: BlobDirectory | undefined) {
    this.#blobs = blobs;
    this.#pending = database.prepare(
      `SELECT chunks.id AS id FROM entries JOIN chunks ON chunks.content = entries.content
       WHERE entries.session = ? AND entries.kind = 'text' AND chunks.indexed = 0 LIMIT ${INDEX_BATCH}`,
    );
    // The end of the chunk before, which the chunk's index row starts with (none for the first chunk).
    this.#setSeam = database.prepare(
      `UPDATE chunks SET seam = (
         SELECT scratchpad_seam(${CHUNK_TEXT})
         FROM chunks ${CHUNK_BYTES_JOINS}
         WHERE chunks.content = @content AND chunks.seq = @seq - 1
       ) WHERE id = @id`,
    );
    this.#chunkPlace = database.prepare('SELECT content, seq FROM chunks WHERE id = ?');
    // Read straight from the tables: the view shows a chunk only once it is marked indexed, right after this.
    this.#indexChunk = database.prepare(
      `INSERT INTO search_index (rowid, name, body)
       SELECT chunks.id, entries.name, ${INDEX_TEXT}
       FROM chunks JOIN entries ON entries.content = chunks.content ${CHUNK_BYTES_JOINS}
       WHERE chunks.id = ?`,
    );
    this.#markIndexed = database.prepare('UPDATE chunks SET indexed = 1 WHERE id = ?');
    this.#progress = database.prepare(
      `SELECT coalesce(sum(chunks.bytes * chunks.indexed), 0) AS done, coalesce(sum(chunks.bytes), 0) AS total
       FROM entries JOIN chunks ON chunks.content = entries.content
       WHERE entries.session = ? AND entries.kind = 'text'`,
    );
    // A content is queued under its entry's name, only when it has indexed chunks (a small write's replace
    // then costs one index probe here).
    const hasIndexed =
      'EXISTS (SELECT 1 FROM chunks WHERE chunks.content = entries.content AND chunks.indexed = 1)';
    this.#queueContent = database.prepare(
      `INSERT OR IGNORE INTO search_unindex (content, name)
       SELECT entries.content, entries.name FROM entries WHERE entries.content = ? AND ${hasIndexed}`,
    );
    this.#queueSession = database.prepare(
      `INSERT OR IGNORE INTO search_unindex (content, name)
       SELECT entries.content, entries.name FROM entries WHERE entries.session = ? AND ${hasIndexed}`,
    );
    this.#hasIndexedFrom = database.prepare(
      'SELECT 1 FROM chunks WHERE content = ? AND seq >= ? AND indexed = 1 LIMIT 1',
    );
    // The chunks an append rewrites get a retired content of their own (retired at 0: nobody reads them once
    // un-indexed), queued under the entry's name.
    this.#detachChunks = database.prepare(
      `INSERT INTO contents (session, created_at, committed, retired_at)
       SELECT session, created_at, 1, 0 FROM contents WHERE id = ?`,
    );
    this.#moveChunks = database.prepare('UPDATE chunks SET content = ? WHERE content = ? AND seq >= ?');
    this.#queueDetached = database.prepare(
      'INSERT INTO search_unindex (content, name) SELECT ?, entries.name FROM entries WHERE entries.content = ?',
    );
    this.#anyQueued = database.prepare('SELECT 1 FROM search_unindex LIMIT 1');
    this.#nextQueued = database.prepare('SELECT content, name FROM search_unindex LIMIT 1');
    this.#queuedChunks = database.prepare(
      `SELECT id FROM chunks WHERE content = ? AND indexed = 1 LIMIT ${INDEX_BATCH}`,
    );
    this.#unindexChunk = database.prepare(
      `INSERT INTO search_index (search_index, rowid, name, body)
       SELECT 'delete', chunks.id, ?, ${INDEX_TEXT}
       FROM chunks ${CHUNK_BYTES_JOINS} WHERE chunks.id = ?`,
    );
    this.#markUnindexed = database.prepare('UPDATE chunks SET indexed = 0 WHERE id = ?');
    this.#dequeue = database.prepare('DELETE FROM search_unindex WHERE content = ?');
    const columns = ENTRY_COLUMNS.split(', ')
      .map((column) => `entries.${column}`)
      .join(', ');
    // bm25() cannot run inside an aggregate, so rank the matching chunks first, then keep each entry's best: its
    // best rank, through the first of its chunks of that rank as they come (by id). One slice of chunk ids at a
    // time (see `rankInSlices`); FTS5 ignores a rowid constraint bound as a floating-point number (how JavaScript
    // numbers bind), so the bounds are cast. The joins run from the matched chunks out (CROSS JOIN fixes that
    // order): left to itself, the planner went from the session's entries through every chunk of each, so a rare
    // word cost a walk over the session's chunk rows in every slice.
    const rankSql = `WITH matched AS MATERIALIZED (
         SELECT rowid AS chunk, bm25(search_index, ${NAME_WEIGHT}, ${BODY_WEIGHT}) AS rank
         FROM search_index
         WHERE search_index MATCH @query AND rowid >= CAST(@from AS INTEGER) AND rowid < CAST(@to AS INTEGER)
       )
       SELECT ${columns}, min(matched.rank) AS rank, matched.chunk AS chunk
       FROM matched CROSS JOIN chunks CROSS JOIN entries
       WHERE chunks.id = matched.chunk AND entries.content = chunks.content
         AND entries.session = @session AND entries.kind = 'text'
       GROUP BY entries.content`;
    this.#rank = database.prepare(`${rankSql} ORDER BY rank, entries.name LIMIT @limit`);
    // When no more chunks match than the limit, every entry is kept: no ORDER BY (its sort was a third of the
    // query's time), the few rows are sorted here.
    this.#rankAll = database.prepare(rankSql);
    this.#matches = database.prepare('SELECT count(*) AS count FROM search_index WHERE search_index MATCH ?');
    this.#lastChunk = database.prepare('SELECT coalesce(max(id), 0) AS id FROM chunks');
    this.#chunkPlace2 = database.prepare(
      `SELECT ${CHUNK_PLACE_COLUMNS} FROM chunks ${CHUNK_BYTES_JOINS} WHERE chunks.id = CAST(? AS INTEGER)`,
    );
    // FTS5 ignores a rowid constraint bound as a floating-point number (how JavaScript numbers bind): cast it.
    this.#snippet = database.prepare(
      `SELECT snippet(search_index, -1, '[', ']', '…', 24) AS snippet
       FROM search_index WHERE search_index MATCH ? AND rowid = CAST(? AS INTEGER)`,
    );
  }

  /**
   * Indexes chunks of `session` not indexed yet until `sliceMs` has passed (at least one chunk: a 256 KiB chunk
   * takes about 4 ms, plus the FTS5 merge its commit may run). Run it in a write transaction of its own: the
   * index rows and the chunks' `indexed` flags change together. Returns how many it indexed; 0 when the session
   * is fully indexed.
   */
  indexChunks(session: string, sliceMs: number): number {
    const started = performance.now();
    let indexed = 0;
    for (;;) {
      const ids = (this.#pending.all(session) as Array<{ id: number }>).map((row) => row.id);
      for (const id of ids) {
        const place = this.#chunkPlace.get(id) as { content: number; seq: number };
        this.#setSeam.run({ id, content: place.content, seq: place.seq });
        this.#indexChunk.run(id);
        this.#markIndexed.run(id);
        indexed += 1;
        if (performance.now() - started >= sliceMs) return indexed;
      }
      if (ids.length < INDEX_BATCH) return indexed;
    }
  }

  /** Bytes of `session`'s text chunks, and how many of them are indexed. */
  progress(session: string): IndexingProgress {
    const row = this.#progress.get(session) as { done: number; total: number };
    return { done: row.done, total: row.total };
  }

  /**
   * Queues the index rows of `content` for removal: call while its entry still points at it, before the entry is
   * deleted or replaced. With `fromSeq` (an append that rewrites the chunks from `fromSeq` on, keeping the
   * content), those chunks move to a retired content of their own, which is queued instead; call before the
   * append deletes or re-keys chunks.
   */
  unindexContent(content: number, fromSeq?: number): void {
    if (fromSeq === undefined) {
      this.#noteQueued(this.#queueContent.run(content).changes);
      return;
    }
    if (this.#hasIndexedFrom.get(content, fromSeq) === undefined) return;
    const detached = Number(this.#detachChunks.run(content).lastInsertRowid);
    this.#moveChunks.run(detached, content, fromSeq);
    this.#noteQueued(this.#queueDetached.run(detached, content).changes);
  }

  /** Queues the index rows of every entry of `session` (call before the session's entries are deleted). */
  unindexSession(session: string): void {
    this.#noteQueued(this.#queueSession.run(session).changes);
  }

  /**
   * Removes queued index rows until `sliceMs` has passed (at least one chunk); a content leaves the queue once
   * none of its chunks is indexed. Run it in a write transaction of its own (after {@link hasQueued} said there
   * is something to do). Returns how much it did; 0 when the queue is empty.
   */
  unindexChunks(sliceMs: number): number {
    const started = performance.now();
    let done = 0;
    for (;;) {
      const queued = this.#nextQueued.get() as { content: number; name: string } | undefined;
      if (!queued) return done;
      const ids = (this.#queuedChunks.all(queued.content) as Array<{ id: number }>).map((row) => row.id);
      if (ids.length === 0) {
        this.#dequeue.run(queued.content);
        done += 1;
        continue;
      }
      for (const id of ids) {
        this.#unindexChunk.run(queued.name, id);
        this.#markUnindexed.run(id);
        done += 1;
        if (performance.now() - started >= sliceMs) return done;
      }
    }
  }

  /**
   * Runs `body`, the work of one write transaction, and says whether it queued un-indexing (the caller starts the
   * queue's loop once the transaction committed). A body that throws queued nothing: its transaction rolls back.
   */
  noteQueuing<T>(body: () => T): { value: T; queued: boolean } {
    this.#queued = false;
    try {
      const value = body();
      return { value, queued: this.#queued };
    } finally {
      this.#queued = false;
    }
  }

  /** True when the queue (of any process) holds something. */
  hasQueued(): boolean {
    return this.#anyQueued.get() !== undefined;
  }

  #noteQueued(changes: number): void {
    if (changes > 0) this.#queued = true;
  }

  /**
   * The best-ranked entries of `session` for an FTS5 query, one per entry, among the chunks whose ids are in
   * `[from, to)`: the best `limit` of the whole index are among the best `limit` of the slices together. Sorted
   * by rank, then name. `matches`, when given, is how many chunks of the whole index matched (a count read
   * before): with no more than `limit` of them, all their entries are returned.
   */
  rank(
    session: string,
    query: string,
    limit: number,
    from: number,
    to: number,
    matches?: number,
  ): RankedEntry[] {
    const all = matches !== undefined && matches <= limit;
    const rows = (all ? this.#rankAll : this.#rank).all({ query, session, limit, from, to }) as Array<
      EntryRow & { rank: number; chunk: number }
    >;
    const ranked = rows.map((row) => ({ record: toEntryRecord(row), rank: row.rank, chunk: row.chunk }));
    if (all) ranked.sort(byRankThenName);
    return ranked;
  }

  /** How many indexed chunks (of any session) match an FTS5 query: counted from the index alone, nothing ranked. */
  matches(query: string): number {
    return (this.#matches.get(query) as { count: number }).count;
  }

  /** The highest chunk id in use (0 when there is none): ranking slices end past it. */
  lastChunk(): number {
    return (this.#lastChunk.get() as { id: number }).id;
  }

  /**
   * The matched terms of `chunk` in context, marked `[…]`, on one line: cut around the first of `terms` found as a
   * word in the chunk's text ({@link wordSnippetOfBytes}, which decodes only the bytes around it), else by FTS5's
   * `snippet()` (which re-tokenizes the chunk: about ten times as long for a 256 KiB chunk).
   */
  snippet(query: string, chunk: number, terms: readonly string[]): string {
    const place = this.#chunkPlace2.get(chunk) as ChunkPlace | undefined;
    const bytes = place ? readChunkBytes(this.#blobs, place) : null;
    const cut = bytes && bytes.byteLength > 0 ? wordSnippetOfBytes(bytes, terms) : undefined;
    if (cut !== undefined) return cut;
    const row = this.#snippet.get(query, chunk) as { snippet: string | null } | undefined;
    return unsegmentScripts(row?.snippet ?? '')
      .replace(/\s+/g, ' ')
      .trim();
  }
}

/** Better rank first (lower), then by name. */
function byRankThenName(left: RankedEntry, right: RankedEntry): number {
  if (left.rank !== right.rank) return left.rank - right.rank;
  return left.record.name < right.record.name ? -1 : left.record.name > right.record.name ? 1 : 0;
}
