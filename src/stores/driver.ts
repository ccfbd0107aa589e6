import type { Chunk, ChunkAxis, ChunkInfo } from '../core/chunk.js';
import type { EntryRecord, SessionInfo } from '../core/entry.js';
import type { StoredChunk } from './stored-chunk.js';

/**
 * The narrow persistence spec every backend implements. A driver only persists: it stages chunks, commits entry
 * records atomically with compare-and-set, finds and reads chunks, lists, deletes and (optionally) searches.
 * Validation, slicing, limits, TTL policy and previews live once in `core/` and `scratchpad/`, never here.
 *
 * Methods are prefixed `do` where callers should go through the service instead (as in the AI SDK).
 *
 * Every answer documented here is checked on every backend by the driver cases of the contract suite
 * (`runStoreContract`, `src/testing/contract-driver.ts`), which call the driver directly.
 */
export interface StoreDriver {
  /** Backend name: `memory`, `sqlite`, `fs`, `postgres`, … */
  readonly backend: string;

  /**
   * Optional: the chunk size, in bytes, this backend reads slices best at, which the service writes new content
   * in when its own config gives none (else `DEFAULT_CHUNK_SIZE`). A slice read fetches the chunks that hold its
   * ends whole, so a backend whose cost per chunk grows with the chunk (PostgreSQL detoasts and decompresses a
   * whole value) asks for smaller ones. Content already stored keeps its chunks: any mix reads back.
   */
  readonly preferredChunkSize?: number;

  /**
   * Optional: true when the content of a deleted or replaced entry stays on disk for readers still reading it
   * until a later {@link doSweepStaging} releases it (the SQLite and PostgreSQL drivers), so a delete frees no
   * space at once; absent or false when it goes with the entry. What `gc` says it freed when depends on it.
   */
  readonly keepsContentForReaders?: boolean;

  /**
   * Opens a staging area for new content in `session`. Chunks written to the sink are invisible until a commit
   * attaches them to an entry. The sink belongs to the caller until a successful commit takes its content or
   * {@link ContentSink.abort} discards it; meanwhile no sweep of this driver removes it, however old (see
   * {@link doSweepStaging}). Staging creates no session: only a commit does.
   */
  doStage(session: string): Promise<ContentSink>;

  /**
   * Atomically makes `request.record` the entry's state, provided the current version matches
   * `request.expectedVersion` (`null` = the entry must not exist) and, when `request.expectedId` is given, the
   * current entry has that id (a name deleted and created again starts over at version 1: the id tells the two
   * apart). Creates the session if needed.
   * On `replace`, the staged content becomes the entry's content and the previous content is deleted.
   * On `append`, chunks `[0, keepChunks)` of the current content are kept and the staged chunks follow them
   * (their offsets are rebased onto chunk `keepChunks`'s start).
   * On `metadata`, only the record's fields change; content stays.
   *
   * On a mismatch it returns `{ ok: false, current }` (`current` is the entry as stored, `undefined`
   * when there is none) and changes nothing: no entry, no session, and the staging area stays the caller's, who
   * may commit it again with the right version or abort it. A commit of a staging area that no longer exists
   * (committed, aborted, or swept by another process) throws.
   */
  doCommit(request: CommitRequest): Promise<CommitResult>;

  /** The record of entry `name` in `session` as stored (expired ones included: TTL is the service's), or `undefined`. */
  doGetEntry(session: string, name: string): Promise<EntryRecord | undefined>;
  /** The record whose `id` is `id`, in any session, or `undefined`. Ids are unique in a store. */
  doGetEntryById(id: string): Promise<EntryRecord | undefined>;
  /**
   * The records that pass every filter of `query`, in its order (ties broken by session, then name, so every
   * backend lists identically), at most `query.limit` of them. Expired records are listed like any other.
   */
  doListEntries(query: ListQuery): Promise<EntryRecord[]>;

  /**
   * The `seq` of the chunk of `record` that contains `position` on `axis`: the last chunk whose start on that axis
   * is `<= position` (for `line`, `position` counts newlines before it). So a position past the end answers the
   * last chunk and a negative one chunk 0; empty content (no chunks) answers 0 on every axis.
   */
  doLocateChunk(record: EntryRecord, axis: ChunkAxis, position: number): Promise<number>;

  /**
   * Chunks `[seqStart, seqEnd)` of `record`, clipped to `[0, record.chunkCount)`, in order, with offsets from
   * the start of the content. An empty, reversed or out-of-range span answers `[]`, never an error.
   */
  doReadChunks(record: EntryRecord, seqStart: number, seqEnd: number): Promise<Chunk[]>;

  /**
   * The chunk of `record` holding `position` on `axis` ({@link doLocateChunk}'s answer), with its bytes, or
   * `undefined` when it is gone (the content was purged): locate and read in one step, for a driver where each
   * is a round trip. Optional: callers locate, then read, without it.
   */
  doReadChunkAt?(record: EntryRecord, axis: ChunkAxis, position: number): Promise<Chunk | undefined>;

  /**
   * Where the bytes of chunks `[seqStart, seqEnd)` are, like {@link doReadChunks} but a chunk stored in a plain file
   * may come as its path and offset, and one in a database row as that row, instead of its bytes, for another
   * thread of this process to read (grep's worker does, so the event loop neither copies nor decodes anything).
   * Optional: callers use {@link doReadChunks} without it.
   */
  doChunkSources?(record: EntryRecord, seqStart: number, seqEnd: number): Promise<ChunkSource[]>;

  /** Deletes the entry and its content, provided its version is still `record.version`. */
  doDeleteEntry(record: EntryRecord): Promise<boolean>;

  /** Every session a commit created and no session delete removed, sorted by id, with its entry count and bytes. */
  doListSessions(): Promise<SessionInfo[]>;
  /** Deletes a session with all its entries; returns what was freed, or `undefined` if there was no session. */
  doDeleteSession(session: string): Promise<{ entries: number; bytes: number } | undefined>;
  /** Totals over the whole store. */
  doStats(): Promise<StoreTotals>;

  /**
   * Ranked full-text search over the text entries of a session. Optional: the service scans when a driver
   * has no index. A driver that builds its index in the background answers from the part already indexed and
   * says how far it got in `indexing`, instead of waiting for the rest.
   */
  doSearch?(request: DriverSearchRequest): Promise<DriverSearchResult>;

  /**
   * Indexes the session for search until its index covers all of its text (what another process is indexing
   * included), reporting progress on the way, and resolves with the final progress. Optional: only drivers that
   * build their index in the background have it; without it a search is always whole. An aborted signal stops the
   * wait, not the background indexing.
   */
  doIndexSession?(session: string, options?: IndexSessionOptions): Promise<IndexingProgress>;

  /**
   * Removes staging areas that were never committed nor aborted and are older than `olderThanMs` (a crashed
   * writer's leftovers; the fs backend counts age from the file's last write), releases the content of replaced or
   * deleted entries a driver kept for readers once their wait is over, and deletes files nothing points at
   * (fs: the other crash leftovers it repairs). Returns what it freed and what it still keeps for readers.
   * A staging area whose sink this driver still holds is never swept, whatever its age: its writer is only slow,
   * and its later writes and commit succeed. An in-memory store therefore sweeps nothing. Another process's open
   * sink is protected only by its age.
   */
  doSweepStaging(olderThanMs: number): Promise<SweepResult>;

  /**
   * Releases connections and file handles. Idempotent. The staging areas of sinks still open are discarded
   * (nothing can commit them any more): writing to such a sink afterwards throws.
   */
  close(): Promise<void>;
}

/** What {@link StoreDriver.doSweepStaging} freed, and what it still keeps for readers. */
export interface SweepResult {
  /** Abandoned staging areas removed. */
  staging: number;
  /**
   * Contents of replaced or deleted entries released by this sweep: a driver that lets readers finish keeps them
   * for a while after the change (the SQLite and PostgreSQL drivers do); `bytes` is their content size.
   */
  released: { contents: number; bytes: number };
  /** Files this sweep deleted (side files, a crashed writer's leftovers) and their size on disk. */
  files: { count: number; bytes: number };
  /**
   * Contents of replaced or deleted entries still kept for readers; `until` (epoch ms) is when the last of them
   * can be released (a sweep after it frees them), `null` when none is kept.
   */
  held: { contents: number; bytes: number; until: number | null };
  /**
   * Contents of replaced or deleted entries past their readers' time, kept until the search index no longer holds
   * them (SQLite removes their index rows in the background; a sweep after that frees them). Absent: none.
   */
  unindexing?: { contents: number; bytes: number };
}

/**
 * A chunk whose bytes are in a plain file: its path, the offset of its first stored byte there, and how they are
 * stored (`codec` and `storedBytes`, as in {@link StoredChunk}).
 */
export interface ChunkInFile extends ChunkInfo {
  codec: number;
  storedBytes: number;
  file: string;
  fileOffset: number;
}

/**
 * A chunk whose bytes are a row of a PostgreSQL store's `chunk_data` table, for another thread to fetch on a
 * connection of its own (so neither the transfer nor the decoding of the bytes runs on the event loop). The row
 * is immutable: content a write supersedes keeps its rows for the store's read grace period.
 */
export interface ChunkInPostgres extends ChunkInfo {
  codec: number;
  storedBytes: number;
  postgres: {
    /** How to connect (`pg`'s environment variables when absent). */
    connectionString?: string;
    /** The store's query timeout (`PostgresDriverConfig.queryTimeoutMs`; its default when absent). */
    queryTimeoutMs?: number;
    /** The store's schema. */
    schema: string;
    /** The `chunk_data` row holding the bytes. */
    dataId: string;
  };
}

/**
 * A chunk with its bytes, with its bytes as stored (maybe compressed), or with the file or database row where they
 * are (see {@link StoreDriver.doChunkSources}).
 */
export type ChunkSource = Chunk | StoredChunk | ChunkInFile | ChunkInPostgres;

/** Where a writer puts the chunks of new content. */
export interface ContentSink {
  /** Identifies the staged content in a {@link CommitRequest}. */
  readonly stagingId: string;
  /**
   * Appends the next chunk; `seq` and offsets are relative to the staged content (the first is seq 0). Throws
   * once the content was committed or aborted.
   */
  write(chunk: Chunk): Promise<void>;
  /**
   * Discards everything staged; a later write or commit of it throws. Idempotent, and a no-op after a successful
   * commit (the entry keeps the content).
   */
  abort(): Promise<void>;
}

/** One atomic change to an entry (`expectedId`: see {@link StoreDriver.doCommit}). */
export type CommitRequest =
  | {
      mode: 'replace';
      record: EntryRecord;
      expectedVersion: number | null;
      expectedId?: string;
      stagingId: string;
    }
  | {
      mode: 'append';
      record: EntryRecord;
      expectedVersion: number;
      expectedId?: string;
      stagingId: string;
      keepChunks: number;
    }
  | { mode: 'metadata'; record: EntryRecord; expectedVersion: number; expectedId?: string };

/** Outcome of a commit. */
export type CommitResult =
  | { ok: true; record: EntryRecord; previous: EntryRecord | undefined }
  | { ok: false; current: EntryRecord | undefined };

/** Filters for listing entries. All given filters must hold. */
export interface ListQuery {
  session?: string;
  turn?: string;
  /** Only entries with `expiresAt !== null && expiresAt <= expiredAt`. */
  expiredAt?: number;
  pinned?: boolean;
  /** Name prefix. */
  prefix?: string;
  /** Default `name`. `updatedAt` lists oldest first. */
  orderBy?: 'name' | 'createdAt' | 'updatedAt';
  limit?: number;
  /** Only entries alive at this time: pinned, without expiry, or expiring after it. */
  liveAt?: number;
  /**
   * Keyset pagination within one session (`session` is set): only entries that come after this position in
   * `orderBy`, i.e. `name > after.name` for `name`, `(time, name) > (after.at, after.name)` for the time orders.
   */
  after?: ListPosition;
}

/** A place in a session's listing: the last entry of the previous page (`at` is its time for the time orders). */
export interface ListPosition {
  name: string;
  at?: number;
}

/** Totals over a store. */
export interface StoreTotals {
  sessions: number;
  entries: number;
  bytes: number;
  pinnedBytes: number;
}

/** A full-text search of one session, as the service hands it to {@link StoreDriver.doSearch}. */
export interface DriverSearchRequest {
  session: string;
  /** The user's words, unparsed: each driver turns them into its own engine's query safely. */
  query: string;
  /** Most entries to return (the service has checked it). */
  limit: number;
}

/** What {@link StoreDriver.doSearch} found. */
export interface DriverSearchResult {
  hits: DriverSearchHit[];
  /** Present while the session's index is incomplete: the hits come from the part indexed so far. */
  indexing?: IndexingProgress;
}

/** How much of a session's text the full-text index covers, in bytes. */
export interface IndexingProgress {
  done: number;
  total: number;
}

/** What {@link StoreDriver.doIndexSession} takes. */
export interface IndexSessionOptions {
  /** Called with how far indexing got, a few times a second and once at the end. */
  onProgress?: (progress: IndexingProgress) => void;
  /** Stops waiting (the promise rejects with the signal's reason); indexing goes on in the background. */
  signal?: AbortSignal;
}

/** One entry a search found: its best-matching chunk's score and snippet. */
export interface DriverSearchHit {
  record: EntryRecord;
  /** Higher is better. */
  score: number;
  /** Text around the best match, with the matched terms marked `[…]`. */
  snippet: string;
}
