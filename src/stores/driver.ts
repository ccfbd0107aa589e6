import type { Chunk, ChunkAxis } from '../core/chunk.js';
import type { EntryRecord, SessionInfo } from '../core/entry.js';

/**
 * The narrow persistence spec every backend implements. A driver only persists: it stages chunks, commits entry
 * records atomically with compare-and-set, finds and reads chunks, lists, deletes and (optionally) searches.
 * Validation, slicing, limits, TTL policy and previews live once in `core/` and `scratchpad/`, never here.
 *
 * Methods are prefixed `do` where callers should go through the service instead (as in the AI SDK).
 */
export interface StoreDriver {
  /** Backend name: `memory`, `sqlite`, `fs`, `postgres`, … */
  readonly backend: string;

  /**
   * Opens a staging area for new content in `session`. Chunks written to the sink are invisible until a commit
   * attaches them to an entry. An aborted or never-committed staging area is removed by {@link doSweepStaging}.
   */
  doStage(session: string): Promise<ContentSink>;

  /**
   * Atomically makes `request.record` the entry's state, provided the current version matches
   * `request.expectedVersion` (`null` = the entry must not exist). Creates the session if needed.
   * On `replace`, the staged content becomes the entry's content and the previous content is deleted.
   * On `append`, chunks `[0, keepChunks)` of the current content are kept and the staged chunks follow them
   * (their offsets are rebased onto chunk `keepChunks`'s start).
   * On `metadata`, only the record's fields change; content stays.
   * Returns `{ ok: false, current }` on a version mismatch without changing anything.
   */
  doCommit(request: CommitRequest): Promise<CommitResult>;

  doGetEntry(session: string, name: string): Promise<EntryRecord | undefined>;
  doGetEntryById(id: string): Promise<EntryRecord | undefined>;
  doListEntries(query: ListQuery): Promise<EntryRecord[]>;

  /**
   * The `seq` of the chunk of `record` that contains `position` on `axis`: the last chunk whose start on that axis
   * is `<= position` (for `line`, `position` counts newlines before it). Returns 0 for empty content.
   */
  doLocateChunk(record: EntryRecord, axis: ChunkAxis, position: number): Promise<number>;

  /** Chunks `[seqStart, seqEnd)` of `record`, clipped to `[0, record.chunkCount)`, in order. */
  doReadChunks(record: EntryRecord, seqStart: number, seqEnd: number): Promise<Chunk[]>;

  /** Deletes the entry and its content, provided its version is still `record.version`. */
  doDeleteEntry(record: EntryRecord): Promise<boolean>;

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

  /** Removes staging areas older than `olderThanMs` that were never committed (a crashed writer's leftovers). */
  doSweepStaging(olderThanMs: number): Promise<number>;

  /** Releases connections and file handles. Idempotent. */
  close(): Promise<void>;
}

/** Where a writer puts the chunks of new content. */
export interface ContentSink {
  /** Identifies the staged content in a {@link CommitRequest}. */
  readonly stagingId: string;
  /** Appends the next chunk; `seq` and offsets are relative to the staged content (the first is seq 0). */
  write(chunk: Chunk): Promise<void>;
  /** Discards everything staged. Idempotent. */
  abort(): Promise<void>;
}

/** One atomic change to an entry. */
export type CommitRequest =
  | { mode: 'replace'; record: EntryRecord; expectedVersion: number | null; stagingId: string }
  | { mode: 'append'; record: EntryRecord; expectedVersion: number; stagingId: string; keepChunks: number }
  | { mode: 'metadata'; record: EntryRecord; expectedVersion: number };

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
}

/** Totals over a store. */
export interface StoreTotals {
  sessions: number;
  entries: number;
  bytes: number;
  pinnedBytes: number;
}

export interface DriverSearchRequest {
  session: string;
  query: string;
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

export interface DriverSearchHit {
  record: EntryRecord;
  /** Higher is better. */
  score: number;
  /** Text around the best match, with the matched terms marked `[…]`. */
  snippet: string;
}
