import { closeSync } from 'node:fs';
import type { ChunkInfo } from '../../core/chunk.js';
import { ScratchpadError } from '../../core/errors.js';
import type { StoredChunk } from '../chunk-codec.js';
import { BlobDirectory, isMissing } from './blob-directory.js';
import { fileError } from './sqlite-errors.js';

/** A `chunks` index row as SQLite returns it. */
export interface ChunkRow {
  seq: number;
  byte_start: number;
  char_start: number;
  line_start: number;
  bytes: number;
  chars: number;
  newlines: number;
}

/**
 * A read row: the index, how the bytes are stored (`codec`, and `stored_bytes`, NULL when they are `bytes`), and
 * the stored bytes inline (`data`) or where they are in a side file.
 */
export interface StoredChunkRow extends ChunkRow {
  id: number;
  codec: number;
  stored_bytes: number | null;
  data: Buffer | null;
  file: number | null;
  file_offset: number | null;
  file_name: string | null;
}

/**
 * Thrown by {@link chunksFromRows} when a side file vanished because the content was purged or rewritten after
 * the chunk rows were read: the caller reports that the entry changed while it was being read.
 */
export class ContentChangedError extends Error {
  constructor(content: number) {
    super(`Content ${content} changed while it was being read.`);
    this.name = 'ContentChangedError';
  }
}

/** Largest single read of a run of chunks stored back to back in a side file. */
const MAX_RUN_BYTES = 8 * 1024 * 1024;

/** How many bytes the chunk of `row` takes where it is stored. */
export function storedSize(row: StoredChunkRow): number {
  return row.stored_bytes ?? row.bytes;
}

/**
 * The chunks of `rows` (in order) with their stored bytes (decompress them with `decodeChunks`): inline bytes as read, external ones with one positional read
 * per run of chunks stored back to back in one file (usually the whole range: one allocation and one system call
 * for up to {@link MAX_RUN_BYTES}), each file opened once per call. When a file is missing, `stillPointsAt`
 * (chunk id, file id) tells a chunk that moved on meanwhile ({@link ContentChangedError}) from a store that lost
 * a file (`STORE_CORRUPT`); a file shorter than its index says is `STORE_CORRUPT` too.
 */
export function chunksFromRows(
  content: number,
  rows: readonly StoredChunkRow[],
  blobs: BlobDirectory | undefined,
  stillPointsAt: (chunk: number, file: number) => boolean,
): StoredChunk[] {
  const chunks: StoredChunk[] = [];
  const open = new Map<string, number>();
  try {
    for (let index = 0; index < rows.length; ) {
      const row = rows[index] as StoredChunkRow;
      if (row.file === null) {
        if (row.data === null) throw missingChunk(content, row.seq);
        chunks.push(checkedChunk(content, row, row.data));
        index++;
        continue;
      }
      const run = externalRun(rows, index);
      const first = run[0] as StoredChunkRow;
      const fd = openFile(content, first, blobs, open, stillPointsAt);
      const data = readRun(fd, first, run, blobs);
      let offset = 0;
      for (const item of run) {
        const end = Math.min(offset + storedSize(item), data.byteLength);
        chunks.push(checkedChunk(content, item, data.subarray(Math.min(offset, end), end)));
        offset += storedSize(item);
      }
      index += run.length;
    }
    return chunks;
  } finally {
    for (const fd of open.values()) closeSync(fd);
  }
}

/** The offsets of a row. */
export function toChunkInfo(row: ChunkRow): ChunkInfo {
  return {
    seq: row.seq,
    byteStart: row.byte_start,
    charStart: row.char_start,
    lineStart: row.line_start,
    bytes: row.bytes,
    chars: row.chars,
    newlines: row.newlines,
  };
}

/** The `STORE_CORRUPT` of a chunk whose row or bytes are missing. */
export function missingChunk(content: number, seq: number): ScratchpadError {
  return new ScratchpadError('STORE_CORRUPT', `Chunk ${seq} of content ${content} is missing.`, {
    hint: 'The file was changed outside llm-scratchpad; delete the entry and write it again.',
    details: { content, seq },
  });
}

/** The rows from `start` on whose bytes follow each other in the same side file (at least one). */
function externalRun(rows: readonly StoredChunkRow[], start: number): StoredChunkRow[] {
  const first = rows[start] as StoredChunkRow;
  const run = [first];
  let bytes = storedSize(first);
  for (let index = start + 1; index < rows.length; index++) {
    const row = rows[index] as StoredChunkRow;
    const previous = run[run.length - 1] as StoredChunkRow;
    if (row.file !== first.file || previous.file_offset === null || row.file_offset === null) break;
    if (row.file_offset !== previous.file_offset + storedSize(previous)) break;
    if (bytes + storedSize(row) > MAX_RUN_BYTES) break;
    run.push(row);
    bytes += storedSize(row);
  }
  return run;
}

/** The descriptor of `row`'s side file, opened once per call. */
function openFile(
  content: number,
  row: StoredChunkRow,
  blobs: BlobDirectory | undefined,
  open: Map<string, number>,
  stillPointsAt: (chunk: number, file: number) => boolean,
): number {
  if (row.file === null || row.file_name === null || row.file_offset === null)
    throw missingChunk(content, row.seq);
  if (!blobs) {
    throw new ScratchpadError(
      'STORE_CORRUPT',
      `Chunk ${row.seq} of content ${content} is in a side file, but this connection has no database path to find it.`,
      {
        hint: 'Open the store by its path (createSqliteDriver({ path })), so the driver finds <path>.blobs.',
        details: { content, seq: row.seq },
      },
    );
  }
  let fd = open.get(row.file_name);
  if (fd === undefined) {
    const path = blobs.filePath(row.file_name);
    try {
      fd = blobs.openForReading(row.file_name);
    } catch (error) {
      if (!isMissing(error)) throw fileError(error, path, 'open the side file');
      if (!stillPointsAt(row.id, row.file)) throw new ContentChangedError(content);
      throw new ScratchpadError(
        'STORE_CORRUPT',
        `Chunk ${row.seq} of content ${content} is in ${path}, which is missing.`,
        {
          hint: 'A side file was deleted or moved outside llm-scratchpad (keep <database>.blobs next to the database); delete the entry and write it again.',
          details: { content, seq: row.seq, path },
          cause: error,
        },
      );
    }
    open.set(row.file_name, fd);
  }
  return fd;
}

function readRun(
  fd: number,
  first: StoredChunkRow,
  run: readonly StoredChunkRow[],
  blobs: BlobDirectory | undefined,
): Buffer {
  const bytes = run.reduce((sum, row) => sum + storedSize(row), 0);
  try {
    return BlobDirectory.read(fd, first.file_offset as number, bytes);
  } catch (error) {
    throw fileError(error, blobs?.filePath(first.file_name as string) ?? '', 'read the side file');
  }
}

/** The chunk of `row` with stored bytes `data`, which must be as long as its index says. */
function checkedChunk(content: number, row: StoredChunkRow, data: Buffer): StoredChunk {
  if (data.byteLength !== storedSize(row)) {
    throw new ScratchpadError(
      'STORE_CORRUPT',
      `Chunk ${row.seq} of content ${content} has ${data.byteLength} stored bytes; its index says ${storedSize(row)}.`,
      {
        hint: 'The store was changed outside llm-scratchpad; delete the entry and write it again.',
        details: { content, seq: row.seq },
      },
    );
  }
  return { ...toChunkInfo(row), codec: row.codec, stored: data };
}
