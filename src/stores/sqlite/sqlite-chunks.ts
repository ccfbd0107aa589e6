import type { ChunkAxis, ChunkInfo } from '../../core/chunk.js';
import { asBuffer } from '../../core/utf8.js';
import type { StoredChunk } from '../chunk-codec.js';
import type { ChunkSource } from '../driver.js';
import { endOf } from '../driver-helpers.js';
import { BlobDirectory } from './blob-directory.js';
import {
  type ChunkRow,
  chunksFromRows,
  missingChunk,
  type StoredChunkRow,
  storedSize,
  toChunkInfo,
} from './chunk-rows.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';

const CHUNK_COLUMNS = 'seq, byte_start, char_start, line_start, bytes, chars, newlines';

/** A chunk whose bytes were written to a side file: its index, codec, and where its stored bytes are. */
export interface ExternalChunk extends ChunkInfo {
  codec: number;
  /** Bytes it takes in the file (`bytes` when not compressed). */
  storedBytes: number;
  file: number;
  fileOffset: number;
}

/** Retired contents: how many, their size in bytes, and when the latest of them was retired (epoch ms). */
export interface RetiredContents {
  contents: number;
  bytes: number;
  latest: number | null;
}

/** A side file registered for a staging area. */
export interface BlobFile {
  id: number;
  name: string;
}

/**
 * The `contents`, `chunks`, `chunk_data` and `blob_files` tables: staging areas, chunk index rows, inline chunk
 * bytes and the side files holding the bytes of large contents. Every statement is prepared once. Methods run
 * synchronously; callers wrap writes in transactions, and delete the side files {@link takeGarbageFiles} names
 * only after the transaction committed.
 */
export class ChunkStore {
  readonly #blobs: BlobDirectory | undefined;
  /** Set when a deletion may have left a side file without owner or chunk. */
  #maybeGarbage = false;
  readonly #insertExternalChunk: SqliteStatement;
  readonly #createFile: SqliteStatement;
  readonly #ownsFile: SqliteStatement;
  readonly #garbageFiles: SqliteStatement;
  readonly #fileNames: SqliteStatement;
  readonly #chunkPointsAt: SqliteStatement;
  readonly #insertContent: SqliteStatement;
  readonly #seedContentIds: SqliteStatement;
  readonly #reserveContentIds: SqliteStatement;
  readonly #stagingArea: SqliteStatement;
  readonly #markCommitted: SqliteStatement;
  readonly #deleteContent: SqliteStatement;
  readonly #abortStaging: SqliteStatement;
  readonly #retireContent: SqliteStatement;
  readonly #purgeRetired: SqliteStatement;
  readonly #retiredSize: SqliteStatement;
  readonly #keptSize: SqliteStatement;
  readonly #contentExists: SqliteStatement;
  readonly #sweepStaging: SqliteStatement;
  readonly #insertChunk: SqliteStatement;
  readonly #insertChunkData: SqliteStatement;
  readonly #countChunks: SqliteStatement;
  readonly #chunkInfo: SqliteStatement;
  readonly #deleteChunksFrom: SqliteStatement;
  readonly #rekeyChunks: SqliteStatement;
  readonly #readChunks: SqliteStatement;
  readonly #locate: Record<ChunkAxis, SqliteStatement>;

  constructor(database: SqliteDatabase, blobs: BlobDirectory | undefined) {
    this.#blobs = blobs;
    this.#insertContent = database.prepare(
      'INSERT INTO contents (id, session, created_at, committed) VALUES (?, ?, ?, ?)',
    );
    // `contents` is AUTOINCREMENT: its counter in sqlite_sequence is past every id ever used. Reserving moves it
    // past the block (and past any row inserted with an explicit id), so SQLite never hands out these ids either.
    this.#seedContentIds = database.prepare(
      `INSERT INTO sqlite_sequence (name, seq) SELECT 'contents', 0
       WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'contents')`,
    );
    this.#reserveContentIds = database.prepare(
      `UPDATE sqlite_sequence SET seq = max(seq, (SELECT coalesce(max(id), 0) FROM contents)) + ?
       WHERE name = 'contents' RETURNING seq`,
    );
    this.#stagingArea = database.prepare('SELECT id FROM contents WHERE id = ? AND committed = 0');
    this.#markCommitted = database.prepare(
      'UPDATE contents SET committed = 1 WHERE id = ? AND committed = 0',
    );
    this.#deleteContent = database.prepare('DELETE FROM contents WHERE id = ?');
    this.#abortStaging = database.prepare('DELETE FROM contents WHERE id = ? AND committed = 0');
    this.#sweepStaging = database.prepare(
      'DELETE FROM contents WHERE committed = 0 AND created_at <= ? AND id NOT IN (SELECT value FROM json_each(?))',
    );
    this.#retireContent = database.prepare(
      'UPDATE contents SET retired_at = ? WHERE id = ? AND retired_at IS NULL',
    );
    // A content whose index rows are still queued for removal stays: removing them replays its text.
    const purgeable = `retired_at IS NOT NULL AND retired_at <= ?
       AND NOT EXISTS (SELECT 1 FROM search_unindex WHERE search_unindex.content = contents.id)`;
    this.#purgeRetired = database.prepare(`DELETE FROM contents WHERE ${purgeable}`);
    // Counted before a purge: an index seek on `contents_retired`, then the chunks of what is due.
    this.#retiredSize = database.prepare(
      `SELECT count(*) AS contents, max(retired_at) AS latest,
         coalesce(sum((SELECT sum(bytes) FROM chunks WHERE chunks.content = contents.id)), 0) AS bytes
       FROM contents WHERE ${purgeable}`,
    );
    // What a purge at `cutoff` leaves: contents retired after it (still in their readers' time), and the rest,
    // which only the un-indexing queue keeps.
    this.#keptSize = database.prepare(
      `SELECT retired_at > @cutoff AS forReaders, count(*) AS contents, max(retired_at) AS latest,
         coalesce(sum((SELECT sum(bytes) FROM chunks WHERE chunks.content = contents.id)), 0) AS bytes
       FROM contents
       WHERE retired_at IS NOT NULL
         AND (retired_at > @cutoff OR EXISTS (SELECT 1 FROM search_unindex WHERE search_unindex.content = contents.id))
       GROUP BY forReaders`,
    );
    this.#contentExists = database.prepare('SELECT 1 FROM contents WHERE id = ?');
    this.#insertChunk = database.prepare(
      `INSERT INTO chunks (content, ${CHUNK_COLUMNS}, codec, stored_bytes)
       VALUES (@content, @seq, @byteStart, @charStart, @lineStart, @bytes, @chars, @newlines, @codec, @storedBytes)`,
    );
    this.#insertChunkData = database.prepare('INSERT INTO chunk_data (id, data) VALUES (?, ?)');
    this.#countChunks = database.prepare('SELECT count(*) AS count FROM chunks WHERE content = ?');
    this.#chunkInfo = database.prepare(`SELECT ${CHUNK_COLUMNS} FROM chunks WHERE content = ? AND seq = ?`);
    this.#deleteChunksFrom = database.prepare('DELETE FROM chunks WHERE content = ? AND seq >= ?');
    this.#rekeyChunks = database.prepare(
      `UPDATE chunks SET content = @target, seq = seq + @seq, byte_start = byte_start + @byteStart,
         char_start = char_start + @charStart, line_start = line_start + @lineStart
       WHERE content = @staging`,
    );
    this.#readChunks = database.prepare(
      `SELECT chunks.id AS id, ${CHUNK_COLUMNS.replace(/(\w+)/g, 'chunks.$1')}, chunks.codec AS codec,
         chunks.stored_bytes AS stored_bytes, chunk_data.data AS data, chunks.file AS file, chunks.file_offset AS file_offset, blob_files.name AS file_name
       FROM chunks LEFT JOIN chunk_data ON chunk_data.id = chunks.id LEFT JOIN blob_files ON blob_files.id = chunks.file
       WHERE chunks.content = ? AND chunks.seq >= ? AND chunks.seq < ? ORDER BY chunks.seq`,
    );
    this.#insertExternalChunk = database.prepare(
      `INSERT INTO chunks (content, ${CHUNK_COLUMNS}, codec, stored_bytes, file, file_offset)
       VALUES (@content, @seq, @byteStart, @charStart, @lineStart, @bytes, @chars, @newlines, @codec, @storedBytes,
         @file, @fileOffset)`,
    );
    this.#createFile = database.prepare(
      'INSERT INTO blob_files (name, owner, created_at) VALUES (?, ?, ?) RETURNING id',
    );
    this.#ownsFile = database.prepare('SELECT 1 FROM blob_files WHERE owner = ? LIMIT 1');
    this.#garbageFiles = database.prepare(
      `DELETE FROM blob_files
       WHERE NOT EXISTS (SELECT 1 FROM contents WHERE contents.id = blob_files.owner)
         AND NOT EXISTS (SELECT 1 FROM chunks WHERE chunks.file = blob_files.id)
       RETURNING name`,
    );
    this.#fileNames = database.prepare('SELECT name FROM blob_files');
    this.#chunkPointsAt = database.prepare('SELECT 1 FROM chunks WHERE id = ? AND file = ?');
    // The last chunk whose start is <= the position: one descending seek on the axis index, which holds every
    // chunk but the first (it starts at 0 on every axis: when no later chunk qualifies, the answer is chunk 0).
    const locate = (column: string): SqliteStatement =>
      database.prepare(
        `SELECT seq FROM chunks WHERE content = ? AND ${column} <= ? AND seq > 0 ORDER BY ${column} DESC, seq DESC LIMIT 1`,
      );
    this.#locate = { byte: locate('byte_start'), char: locate('char_start'), line: locate('line_start') };
  }

  /**
   * Reserves `count` content ids no connection will use for anything else; returns the last (the block ends
   * there). Run it in a write transaction.
   */
  reserveContentIds(count: number): number {
    this.#seedContentIds.run();
    return Number((this.#reserveContentIds.get(count) as { seq: number }).seq);
  }

  /**
   * Inserts the row of content `content` (a reserved id): a staging area, or with `committed` an entry's content
   * at once (a small write's staging area, created by its commit).
   */
  insertContent(content: number, session: string, createdAt: number, committed: boolean): void {
    this.#insertContent.run(content, session, createdAt, committed ? 1 : 0);
  }

  /** True when `content` is a staging area that was never committed. */
  isStaging(content: number): boolean {
    return this.#stagingArea.get(content) !== undefined;
  }

  /** Appends a chunk (index row and stored bytes) to `content`, its bytes inline. */
  insertChunk(content: number, chunk: StoredChunk): void {
    const id = this.#insertChunk.run(
      chunkIndexRow(content, chunk, chunk.codec === 0 ? null : chunk.stored.byteLength),
    ).lastInsertRowid;
    this.#insertChunkData.run(id, asBuffer(chunk.stored));
  }

  /** Adds index rows of chunks whose bytes are in side files to `content`. */
  insertExternalChunks(content: number, chunks: readonly ExternalChunk[]): void {
    for (const chunk of chunks) {
      this.#insertExternalChunk.run({
        ...chunkIndexRow(content, chunk, chunk.codec === 0 ? null : chunk.storedBytes),
        file: chunk.file,
        fileOffset: chunk.fileOffset,
      });
    }
  }

  /**
   * Registers a new side file owned by staging area `owner` (the file is created after this commits, so a file
   * on disk without a row is always garbage).
   */
  createFile(owner: number, now: number): BlobFile {
    const name = BlobDirectory.fileName(owner);
    const row = this.#createFile.get(name, owner, now) as { id: number };
    return { id: row.id, name };
  }

  /** True when staging area `content` registered a side file. */
  ownsFile(content: number): boolean {
    return this.#ownsFile.get(content) !== undefined;
  }

  /**
   * Forgets the side files no content owns and no chunk points at any more, and returns their names: delete them
   * once the transaction committed (a crash before that leaves files without rows, which the sweep removes).
   */
  takeGarbageFiles(): string[] {
    if (!this.#maybeGarbage) return [];
    this.#maybeGarbage = false;
    return (this.#garbageFiles.all() as Array<{ name: string }>).map((row) => row.name);
  }

  #noteDeleted(changes: number): number {
    if (changes > 0) this.#maybeGarbage = true;
    return changes;
  }

  /** Names of every registered side file. */
  fileNames(): Set<string> {
    return new Set((this.#fileNames.all() as Array<{ name: string }>).map((row) => row.name));
  }

  /** Marks a staging area as an entry's content. */
  markCommitted(content: number): void {
    this.#markCommitted.run(content);
  }

  /** Deletes a content with its chunks and their bytes. */
  deleteContent(content: number): void {
    if (this.#deleteContent.run(content).changes > 0) this.#maybeGarbage = true;
  }

  /**
   * Marks a replaced or deleted entry's content as retired: it is no longer any entry's content, but a reader
   * that resolved the entry before the change can still read it until {@link purgeRetired} removes it.
   */
  retireContent(content: number, now: number): void {
    this.#retireContent.run(now, content);
  }

  /**
   * Deletes contents retired at or before `cutoff`, with their chunks and bytes, except those still queued for
   * un-indexing; returns how many and their size.
   */
  purgeRetired(cutoff: number): RetiredContents {
    const due = this.retired(cutoff);
    if (due.contents > 0) this.#noteDeleted(this.#purgeRetired.run(cutoff).changes);
    return due;
  }

  /**
   * What a purge at `cutoff` keeps: `forReaders`, the contents retired after it (queued for un-indexing or not),
   * with their latest retirement; `unindexing`, those retired at or before it that the un-indexing queue still
   * holds (a purge after their index rows left deletes them).
   */
  kept(cutoff: number): { forReaders: RetiredContents; unindexing: { contents: number; bytes: number } } {
    const rows = this.#keptSize.all({ cutoff }) as Array<{
      forReaders: number;
      contents: number;
      bytes: number;
      latest: number | null;
    }>;
    const forReaders = rows.find((row) => row.forReaders === 1);
    const unindexing = rows.find((row) => row.forReaders === 0);
    return {
      forReaders: forReaders
        ? { contents: forReaders.contents, bytes: forReaders.bytes, latest: forReaders.latest }
        : { contents: 0, bytes: 0, latest: null },
      unindexing: { contents: unindexing?.contents ?? 0, bytes: unindexing?.bytes ?? 0 },
    };
  }

  /**
   * Contents retired at or before `cutoff` that a purge would delete (not those queued for un-indexing): how
   * many, their size, the latest retirement.
   */
  retired(cutoff: number): RetiredContents {
    const row = this.#retiredSize.get(cutoff) as { contents: number; bytes: number; latest: number | null };
    return { contents: row.contents, bytes: row.bytes, latest: row.latest };
  }

  /** True while `content` exists (staging, live or retired but not purged). */
  contentExists(content: number): boolean {
    return this.#contentExists.get(content) !== undefined;
  }

  /** Deletes a staging area (never a committed content). */
  abortStaging(content: number): void {
    this.#noteDeleted(this.#abortStaging.run(content).changes);
  }

  /** Deletes staging areas created at or before `cutoff`, except those in `open`; returns how many. */
  sweepStaging(cutoff: number, open: Iterable<number>): number {
    return this.#noteDeleted(this.#sweepStaging.run(cutoff, JSON.stringify([...open])).changes);
  }

  /** How many chunks `content` has. */
  countChunks(content: number): number {
    return (this.#countChunks.get(content) as { count: number }).count;
  }

  /**
   * Moves the chunks of staging area `staging` to the end of `target`'s first `keep` chunks, rebasing their
   * offsets (see `rebaseChunks`). Chunks of `target` from `keep` on are deleted first. Only index rows change.
   * Returns how many chunks moved.
   */
  appendStaged(target: number, keep: number, staging: number): number {
    this.#noteDeleted(this.#deleteChunksFrom.run(target, keep).changes);
    const last = keep > 0 ? (this.#chunkInfo.get(target, keep - 1) as ChunkRow | undefined) : undefined;
    if (keep > 0 && !last) throw missingChunk(target, keep - 1);
    const base = endOf(last ? [toChunkInfo(last)] : []);
    return this.#rekeyChunks.run({ target, staging, ...base }).changes;
  }

  /**
   * Chunks `[seqStart, seqEnd)` of `content`, in order, with their stored bytes wherever they are (see
   * `chunksFromRows`; decompress them with `decodeChunks`). Throws `ContentChangedError` when a side file
   * vanished with the rows pointing at it.
   */
  readChunks(content: number, seqStart: number, seqEnd: number): StoredChunk[] {
    const rows = this.#readChunks.all(content, seqStart, seqEnd) as StoredChunkRow[];
    return chunksFromRows(
      content,
      rows,
      this.#blobs,
      (id, file) => this.#chunkPointsAt.get(id, file) !== undefined,
    );
  }

  /**
   * Like {@link readChunks}, but a chunk in a side file comes as the file's path and offset, unread (bytes as
   * stored: the reader decompresses). Reads the bytes (and reports what is wrong) as {@link readChunks} does when
   * the store has no side-file directory.
   */
  chunkSources(content: number, seqStart: number, seqEnd: number): ChunkSource[] {
    const rows = this.#readChunks.all(content, seqStart, seqEnd) as StoredChunkRow[];
    const blobs = this.#blobs;
    const sources: ChunkSource[] = [];
    for (const row of rows) {
      if (row.file === null) {
        if (row.data === null) throw missingChunk(content, row.seq);
        sources.push(...chunksFromRows(content, [row], blobs, () => false));
      } else if (blobs && row.file_name !== null && row.file_offset !== null) {
        sources.push({
          ...toChunkInfo(row),
          codec: row.codec,
          storedBytes: storedSize(row),
          file: blobs.filePath(row.file_name),
          fileOffset: row.file_offset,
        });
      } else {
        return this.readChunks(content, seqStart, seqEnd);
      }
    }
    return sources;
  }

  /** Seq of the last chunk of `content` whose start on `axis` is `<= position`, or 0. */
  locate(content: number, axis: ChunkAxis, position: number): number {
    const row = this.#locate[axis].get(content, position) as { seq: number } | undefined;
    return row?.seq ?? 0;
  }
}

/** The index columns every chunk row has, inline or in a side file. */
function chunkIndexRow(
  content: number,
  chunk: StoredChunk | ExternalChunk,
  storedBytes: number | null,
): Record<string, number | null> {
  return {
    content,
    seq: chunk.seq,
    byteStart: chunk.byteStart,
    charStart: chunk.charStart,
    lineStart: chunk.lineStart,
    bytes: chunk.bytes,
    chars: chunk.chars,
    newlines: chunk.newlines,
    codec: chunk.codec,
    storedBytes,
  };
}
