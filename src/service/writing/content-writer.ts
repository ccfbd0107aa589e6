import { createHash, type Hash } from 'node:crypto';
import type { Chunk } from '../../core/chunk.js';
import { Chunker } from '../../core/chunker.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';
import type { ContentSink, StoreDriver } from '../../stores/driver.js';
import { type ContentInput, contentPieces, wholePieces } from './content-input.js';

/** What staging produced: the sink to commit and the staged content's totals. */
export interface StagedContent {
  sink: ContentSink;
  chunks: number;
  bytes: number;
  chars: number;
  newlines: number;
  /** Last byte of the staged content (-1 when empty). */
  lastByte: number;
  utf8: boolean;
}

/** Options for {@link stageContent}. */
export interface StageOptions {
  chunkSize: number;
  /** Refuse input past this many bytes (`CONTENT_TOO_LARGE`), checked while streaming. */
  maxBytes: number;
  /** Feeds every staged byte to this hash (the caller may have fed earlier content to it already). */
  hash?: Hash;
  /** Bytes to stage before the input (the tail of existing content that an append rewrites). */
  prefix?: Uint8Array;
  /** Leave the prefix out of the hash (the caller's hash already covers it). */
  prefixHashed?: boolean;
}

/**
 * Streams `input` into a new staging area of `driver`, chunk by chunk, hashing as it goes. Memory stays
 * O(chunk size). Staged offsets start at 0; a driver rebases them when it appends. On any failure the staging
 * area is aborted, so nothing half-written is ever visible.
 */
export async function stageContent(
  driver: StoreDriver,
  session: string,
  input: ContentInput,
  options: StageOptions,
): Promise<StagedContent> {
  const sink = await driver.doStage(session);
  const chunker = new Chunker(options.chunkSize);
  // Hash each chunk as it is written rather than each piece before it is cut: the hash then runs while the
  // driver's I/O for the previous chunks proceeds, instead of over a whole (possibly 100 MB) piece with the disk
  // idle. The chunks are the staged bytes in order, so the digest is the same.
  const skip = options.prefixHashed ? (options.prefix?.byteLength ?? 0) : 0;
  const emit = async (chunks: Iterable<Chunk>): Promise<void> => {
    for (const chunk of chunks) {
      if (chunk.byteStart + chunk.bytes > skip)
        options.hash?.update(chunk.data.subarray(Math.max(0, skip - chunk.byteStart)));
      await sink.write(chunk);
    }
  };
  let received = 0;
  try {
    if (options.prefix && options.prefix.byteLength > 0) await emit(chunker.add(options.prefix));
    for await (const piece of wholePieces(input) ?? contentPieces(input)) {
      received += piece.byteLength;
      if (received > options.maxBytes) {
        throw new ScratchpadError(
          'CONTENT_TOO_LARGE',
          `Content is larger than the limit of ${formatBytes(options.maxBytes)} for one write.`,
          { hint: 'Write it in parts, or raise maxEntryBytes.', details: { limit: options.maxBytes } },
        );
      }
      await emit(chunker.add(piece));
    }
    await emit(chunker.flush());
  } catch (error) {
    await sink.abort();
    throw error;
  }
  const totals = chunker.totals;
  return {
    sink,
    chunks: totals.chunks,
    bytes: totals.bytes,
    chars: totals.chars,
    newlines: totals.newlines,
    lastByte: totals.lastByte,
    utf8: chunker.isUtf8,
  };
}

/** A fresh SHA-256 hash. */
export function newContentHash(): Hash {
  return createHash('sha256');
}
