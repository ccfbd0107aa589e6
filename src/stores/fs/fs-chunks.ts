import { open, readFile } from 'node:fs/promises';
import type { Chunk, ChunkAxis } from '../../core/chunk.js';
import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import type { ChunkInFile } from '../driver.js';
import { readFully } from './atomic-file.js';
import { ChunkIndex } from './chunk-index.js';
import type { ChunkIndexCache } from './chunk-index-cache.js';
import type { RecordReader } from './fs-entries.js';
import { isMissing, storeError } from './fs-errors.js';
import { type FsLayout, splitContentId } from './fs-layout.js';

/**
 * The O(slice) read path: finds chunks with a binary search over the (cached) chunk index and reads exactly
 * their bytes from the content file with one positional read. Never reads past the record's end, so bytes an
 * append is writing (or a crash left) after it are never seen.
 */
export class ContentReader {
  readonly #layout: FsLayout;
  readonly #records: RecordReader;
  readonly #indexes: ChunkIndexCache;

  constructor(layout: FsLayout, records: RecordReader, indexes: ChunkIndexCache) {
    this.#layout = layout;
    this.#records = records;
    this.#indexes = indexes;
  }

  /** See `StoreDriver.doLocateChunk`. */
  async locate(record: EntryRecord, axis: ChunkAxis, position: number): Promise<number> {
    if (record.chunkCount === 0) return 0;
    return (await this.index(record)).locate(axis, position, record.chunkCount);
  }

  /** See `StoreDriver.doReadChunks`. */
  async chunks(record: EntryRecord, seqStart: number, seqEnd: number): Promise<Chunk[]> {
    const from = Math.max(0, seqStart);
    const to = Math.min(seqEnd, record.chunkCount);
    if (to <= from) return [];
    const index = await this.index(record);
    const start = index.start('byte', from);
    const length = index.start('byte', to) - start;
    const path = this.#layout.contentFile(record.session, splitContentId(record.contentId).fileId);
    const data = Buffer.allocUnsafe(length);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isMissing(error)) throw await this.vanished(record, path);
      throw storeError(error, path, 'open');
    }
    let read: number;
    try {
      read = await readFully(handle, data, 0, length, start);
    } finally {
      await handle.close();
    }
    if (read < length) {
      throw new ScratchpadError(
        'STORE_CORRUPT',
        `The content file ${path} ends at byte ${start + read}, before its index says.`,
        {
          hint: 'It was truncated outside the scratchpad; delete the entry and write it again.',
          details: { path, entry: record.id },
        },
      );
    }
    const chunks: Chunk[] = [];
    for (let seq = from; seq < to; seq++) {
      const info = index.info(seq);
      const offset = info.byteStart - start;
      chunks.push({ ...info, data: data.subarray(offset, offset + info.bytes) });
    }
    return chunks;
  }

  /**
   * See `StoreDriver.doChunkSources`: every chunk as its place in the content file (one positional read of a run
   * of them, by the grep worker), from the chunk index alone.
   */
  async sources(record: EntryRecord, seqStart: number, seqEnd: number): Promise<ChunkInFile[]> {
    const from = Math.max(0, seqStart);
    const to = Math.min(seqEnd, record.chunkCount);
    if (to <= from) return [];
    const index = await this.index(record);
    const file = this.#layout.contentFile(record.session, splitContentId(record.contentId).fileId);
    const sources: ChunkInFile[] = [];
    for (let seq = from; seq < to; seq++) {
      const info = index.info(seq);
      sources.push({ ...info, codec: 0, storedBytes: info.bytes, file, fileOffset: info.byteStart });
    }
    return sources;
  }

  /** The parsed chunk index of `record`'s content, from the cache or its file; checked against the record. */
  async index(record: EntryRecord): Promise<ChunkIndex> {
    const key = `${record.session}/${record.contentId}`;
    let index = this.#indexes.get(key);
    if (!index) {
      const path = this.#layout.indexFile(record.session, record.contentId);
      let data: Buffer;
      try {
        data = await readFile(path);
      } catch (error) {
        if (isMissing(error)) throw await this.vanished(record, path);
        throw storeError(error, path, 'read');
      }
      index = ChunkIndex.decode(data, path);
      this.#indexes.set(key, index);
    }
    if (index.count !== record.chunkCount || index.start('byte', index.count) !== record.bytes) {
      throw new ScratchpadError(
        'STORE_CORRUPT',
        `The chunk index of "${record.session}/${record.name}" does not match its record.`,
        {
          hint: 'Delete the entry and write it again.',
          details: { entry: record.id, chunks: index.count, expectedChunks: record.chunkCount },
        },
      );
    }
    return index;
  }

  /** Why a file a record names is missing: the entry changed under the reader, or the store is damaged. */
  async vanished(record: EntryRecord, path: string): Promise<ScratchpadError> {
    const current = await this.#records.record(record.session, record.name);
    if (!current || current.contentId !== record.contentId) {
      return new ScratchpadError(
        'VERSION_CONFLICT',
        `Entry "${record.name}" changed while it was being read (version ${record.version} is gone).`,
        {
          hint: 'Read it again.',
          details: { expected: record.version, actual: current?.version ?? null, changedWhileReading: true },
        },
      );
    }
    return new ScratchpadError(
      'STORE_CORRUPT',
      `${path} is missing, but the record of "${record.name}" refers to it.`,
      {
        hint: 'Restore the file from a backup, or delete the entry and write it again.',
        details: { path, entry: record.id },
      },
    );
  }
}
