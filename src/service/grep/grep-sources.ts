import { closeSync, openSync, read, readSync } from 'node:fs';
import type { Chunk } from '../../core/chunk.js';
import { scanBuffer } from '../../core/simd-needle.js';
import { decodeChunks, type StoredChunk } from '../../stores/chunk-codec.js';
import type { ChunkInFile, ChunkInPostgres, ChunkSource } from '../../stores/driver.js';
import type { PostgresChunkFetcher } from '../../stores/postgres/postgres-chunk-fetcher.js';

/**
 * Turns chunk sources into chunks in the grep worker: bytes given are used as they are, chunks in files are read
 * by this thread into two buffers reused from batch to batch (fresh buffers cost page faults and garbage
 * collection: reading into reused ones halved the time of a 1 GiB scan), and compressed chunks are decompressed
 * here (`decodeChunks`, in parallel in the thread pool), never on the event loop. A run of chunks stored back to
 * back in one file is one read. Chunks in PostgreSQL rows are fetched on this thread's own connection
 * (`PostgresChunkFetcher`, loaded only when a PostgreSQL store is grepped).
 *
 * Read-ahead: {@link prefetch} of the next batch's sources starts reading its files in the thread pool into the
 * buffer the current batch does not use, so the copy out of the page cache overlaps the search of this batch
 * instead of following it. Batch n's bytes stay valid until load n + 1 (the contract of `ChunkBatches.batch`).
 */
export class SourceReader {
  readonly #buffers = [Buffer.allocUnsafe(0), Buffer.allocUnsafe(0)];
  /** The buffer the last {@link load} handed out (in use until the next load). */
  #inUse = 0;
  #ahead: { sources: readonly ChunkSource[]; slot: number; read: Promise<boolean> } | undefined;
  /** Files opened during this scan (closed by {@link release}): a read-ahead is then one `read` in the pool. */
  readonly #files = new Map<string, number | false>();
  /** Set by {@link release} until the next {@link load}: a read-ahead asked for after its scan ended is dropped. */
  #released = false;
  #postgres: Promise<PostgresChunkFetcher> | undefined;
  #postgresLoaded: PostgresChunkFetcher | undefined;

  /**
   * Starts reading the files of `sources` (into the buffer the last load did not hand out) and fetching those
   * that are database rows (once a load has needed database rows before: the first batch of a scan is not
   * fetched ahead), for the {@link load} of the same `sources` array. Nothing after {@link release}: the scan
   * that asked for it has ended.
   */
  prefetch(sources: readonly ChunkSource[]): void {
    if (this.#released) return;
    const rows = sources.filter(inPostgres);
    if (rows.length > 0) this.#postgresLoaded?.prefetch(rows);
    if (this.#ahead || !sources.some(inFile)) return;
    const slot = 1 - this.#inUse;
    const buffer = this.#reserve(slot, sources);
    this.#ahead = { sources, slot, read: this.#readAhead(fileRuns(sources), buffer) };
  }

  /**
   * The chunks of `sources`, in order; bytes read from files stay valid until the next call. Returns `undefined`
   * when a file cannot be opened or is shorter than its chunks say, or bytes do not decompress (the caller reads
   * those chunks through the store, which reports what happened).
   */
  async load(sources: readonly ChunkSource[]): Promise<Chunk[] | undefined> {
    this.#released = false;
    // Which buffer this load hands out is settled before the first await: a prefetch started meanwhile (for the
    // next batch) must read into the other one.
    const ahead = this.#ahead;
    const prefetched = ahead?.sources === sources ? ahead : undefined;
    const slot = prefetched ? prefetched.slot : ahead ? 1 - ahead.slot : 1 - this.#inUse;
    this.#inUse = slot;
    let filesRead: Promise<boolean> | boolean;
    if (prefetched) {
      this.#ahead = undefined;
      filesRead = prefetched.read;
    } else {
      // A read-ahead of other sources (a scan that stopped early) finishes before its buffer is reused; it stays
      // pending meanwhile, so no other read-ahead starts into that buffer.
      if (ahead) {
        await ahead.read;
        this.#ahead = undefined;
      }
      filesRead = this.#readNow(fileRuns(sources), this.#reserve(slot, sources));
    }
    const buffer = this.#buffers[slot] as Buffer;
    const rows = sources.filter(inPostgres);
    let fetched: Map<string, Uint8Array> | undefined;
    if (rows.length > 0) {
      try {
        fetched = await (await this.#fetcher()).fetch(rows);
      } catch {
        return undefined;
      }
    }
    if (!(await filesRead)) return undefined;
    const stored: StoredChunk[] = [];
    let used = 0;
    for (const source of sources) {
      if (inPostgres(source)) {
        const { postgres, storedBytes: _bytes, ...info } = source;
        const data = fetched?.get(postgres.dataId);
        if (!data) return undefined;
        stored.push({ ...info, stored: data });
      } else if (inFile(source)) {
        const { file: _file, fileOffset: _offset, storedBytes, ...info } = source;
        stored.push({ ...info, stored: buffer.subarray(used, used + storedBytes) });
        used += storedBytes;
      } else {
        stored.push('data' in source ? { ...source, codec: 0, stored: source.data } : source);
      }
    }
    try {
      return await decodeChunks(stored, 'grep');
    } catch {
      return undefined;
    }
  }

  /**
   * Closes the files this reader opened, after a read-ahead still under way. Called at the end of each scan: a
   * file is read only while the scan that asked for it runs.
   */
  async release(): Promise<void> {
    this.#released = true;
    const ahead = this.#ahead;
    this.#ahead = undefined;
    if (ahead) await ahead.read;
    for (const fd of this.#files.values()) if (fd !== false) closeSync(fd);
    this.#files.clear();
  }

  /** The descriptor of `path`, opened once per scan; false when it cannot be opened. */
  #open(path: string): number | false {
    let fd = this.#files.get(path);
    if (fd === undefined) {
      try {
        fd = openSync(path, 'r');
      } catch {
        fd = false;
      }
      this.#files.set(path, fd);
    }
    return fd;
  }

  /** Fills each run's part of `buffer`; false when a file is missing, unreadable or too short. */
  #readNow(runs: readonly FileRun[], buffer: Buffer): boolean {
    for (const run of runs) {
      const fd = this.#open(run.file);
      if (fd === false || !readFully(fd, run.position, buffer.subarray(run.target.start, run.target.end)))
        return false;
    }
    return true;
  }

  /**
   * {@link readNow} in the thread pool: every run's `read` is issued now, so the copy proceeds while this thread
   * searches (an open or a chain of awaits would wait for this thread's event loop, after the search).
   */
  #readAhead(runs: readonly FileRun[], buffer: Buffer): Promise<boolean> {
    return Promise.all(
      runs.map((run) => {
        const fd = this.#open(run.file);
        return fd === false
          ? false
          : readFullyInPool(fd, run.position, buffer.subarray(run.target.start, run.target.end));
      }),
    ).then((done) => done.every(Boolean));
  }

  /**
   * Buffer `slot`, grown to hold the file bytes of `sources`; in WebAssembly memory (`scanBuffer`), where the
   * literal search (`SimdNeedle`) finds the bytes without copying them.
   */
  #reserve(slot: number, sources: readonly ChunkSource[]): Buffer {
    let fileBytes = 0;
    for (const source of sources) if (inFile(source)) fileBytes += source.storedBytes;
    if ((this.#buffers[slot] as Buffer).byteLength < fileBytes) this.#buffers[slot] = scanBuffer(fileBytes);
    return this.#buffers[slot] as Buffer;
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

function inFile(source: ChunkSource): source is ChunkInFile {
  return 'file' in source;
}

/** Bytes at `position` of `file`, read into `target` (one read for chunks stored back to back). */
interface FileRun {
  file: string;
  position: number;
  target: { start: number; end: number };
}

/** The file chunks of `sources`, merged into runs, laid out one after another from the start of the buffer. */
function fileRuns(sources: readonly ChunkSource[]): FileRun[] {
  const runs: FileRun[] = [];
  let used = 0;
  for (const source of sources) {
    if (!inFile(source)) continue;
    const last = runs.at(-1);
    if (
      last &&
      last.file === source.file &&
      last.position + (last.target.end - last.target.start) === source.fileOffset
    ) {
      last.target.end += source.storedBytes;
    } else {
      runs.push({
        file: source.file,
        position: source.fileOffset,
        target: { start: used, end: used + source.storedBytes },
      });
    }
    used += source.storedBytes;
  }
  return runs;
}

/** Fills `target` from `fd` at `position`; false when the file is unreadable or too short. */
function readFully(fd: number, position: number, target: Buffer): boolean {
  try {
    let done = 0;
    while (done < target.byteLength) {
      const count = readSync(fd, target, done, target.byteLength - done, position + done);
      if (count === 0) return false;
      done += count;
    }
    return true;
  } catch {
    return false;
  }
}

/** {@link readFully} through the thread pool. */
function readFullyInPool(fd: number, position: number, target: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const from = (done: number): void => {
      if (done === target.byteLength) {
        resolve(true);
        return;
      }
      read(fd, target, done, target.byteLength - done, position + done, (error, count) => {
        if (error || count === 0) resolve(false);
        else from(done + count);
      });
    };
    from(0);
  });
}
