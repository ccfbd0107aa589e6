import { closeSync, openSync, readSync } from 'node:fs';
import type { Chunk } from '../../core/chunk.js';
import { decodeChunks, type StoredChunk } from '../../stores/chunk-codec.js';
import type { ChunkInFile, ChunkInPostgres, ChunkSource } from '../../stores/driver.js';
import type { PostgresChunkFetcher } from '../../stores/postgres/postgres-chunk-fetcher.js';

/**
 * Turns chunk sources into chunks in the grep worker: bytes given are used as they are, chunks in files are read
 * by this thread into one buffer reused from batch to batch (fresh buffers cost page faults and garbage
 * collection: reading into a reused one halved the time of a 1 GiB scan), and compressed chunks are decompressed
 * here (`decodeChunks`, in parallel in the thread pool), never on the event loop. A run of chunks stored back to
 * back in one file is one read. Chunks in PostgreSQL rows are fetched on this thread's own connection
 * (`PostgresChunkFetcher`, loaded only when a PostgreSQL store is grepped).
 */
export class SourceReader {
  #buffer = Buffer.allocUnsafe(0);
  #postgres: Promise<PostgresChunkFetcher> | undefined;
  #postgresLoaded: PostgresChunkFetcher | undefined;

  /**
   * Starts fetching the bytes of `sources` that are database rows, for the {@link load} that will need them (once
   * a load has needed database rows before: the first batch of a scan is not fetched ahead).
   */
  prefetch(sources: readonly ChunkSource[]): void {
    const rows = sources.filter(inPostgres);
    if (rows.length > 0) this.#postgresLoaded?.prefetch(rows);
  }

  /**
   * The chunks of `sources`, in order; bytes read from files stay valid until the next call. Returns `undefined`
   * when a file cannot be opened or is shorter than its chunks say, or bytes do not decompress (the caller reads
   * those chunks through the store, which reports what happened).
   */
  async load(sources: readonly ChunkSource[]): Promise<Chunk[] | undefined> {
    let fileBytes = 0;
    for (const source of sources) if ('file' in source) fileBytes += source.storedBytes;
    if (this.#buffer.byteLength < fileBytes) this.#buffer = Buffer.allocUnsafe(fileBytes);
    const buffer = this.#buffer;
    const stored: StoredChunk[] = [];
    const rows = sources.filter(inPostgres);
    let fetched: Map<string, Uint8Array> | undefined;
    if (rows.length > 0) {
      try {
        fetched = await (await this.#fetcher()).fetch(rows);
      } catch {
        return undefined;
      }
    }
    let used = 0;
    for (let index = 0; index < sources.length; ) {
      const source = sources[index] as ChunkSource;
      if (inPostgres(source)) {
        const { postgres, storedBytes: _bytes, ...info } = source;
        const data = fetched?.get(postgres.dataId);
        if (!data) return undefined;
        stored.push({ ...info, stored: data });
        index++;
        continue;
      }
      if (!('file' in source)) {
        stored.push('data' in source ? { ...source, codec: 0, stored: source.data } : source);
        index++;
        continue;
      }
      // The run of chunks that follow each other in the same file.
      let end = index + 1;
      let runBytes = source.storedBytes;
      for (; end < sources.length; end++) {
        const next = sources[end] as ChunkSource;
        if (
          !('file' in next) ||
          next.file !== source.file ||
          next.fileOffset !== source.fileOffset + runBytes
        )
          break;
        runBytes += next.storedBytes;
      }
      if (!readFully(source.file, source.fileOffset, buffer.subarray(used, used + runBytes)))
        return undefined;
      for (let at = index; at < end; at++) {
        const { file: _file, fileOffset: _offset, storedBytes, ...info } = sources[at] as ChunkInFile;
        stored.push({ ...info, stored: buffer.subarray(used, used + storedBytes) });
        used += storedBytes;
      }
      index = end;
    }
    try {
      return await decodeChunks(stored, 'grep');
    } catch {
      return undefined;
    }
  }

  #fetcher(): Promise<PostgresChunkFetcher> {
    this.#postgres ??= import('../../stores/postgres/postgres-chunk-fetcher.js').then((loaded) => {
      this.#postgresLoaded = new loaded.PostgresChunkFetcher();
      return this.#postgresLoaded;
    });
    return this.#postgres;
  }
}

function inPostgres(source: ChunkSource): source is ChunkInPostgres {
  return 'postgres' in source;
}

/** Fills `target` from `path` at `position`; false when the file is missing, unreadable or too short. */
function readFully(path: string, position: number, target: Buffer): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    let done = 0;
    while (done < target.byteLength) {
      const read = readSync(fd, target, done, target.byteLength - done, position + done);
      if (read === 0) return false;
      done += read;
    }
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
