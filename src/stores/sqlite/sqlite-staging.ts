import { close, fdatasync, write } from 'node:fs';
import type { Chunk } from '../../core/chunk.js';
import { type ChunkCompression, encodeChunkBytes, type StoredChunk } from '../chunk-codec.js';
import type { ContentSink } from '../driver.js';
import type { BlobDirectory } from './blob-directory.js';
import type { BlobFile, ExternalChunk } from './sqlite-chunks.js';
import { fileError } from './sqlite-errors.js';

/**
 * A staging area: its reserved content id, and whether its `contents` row exists yet. The row is created by the
 * first step that stores something for it (inline chunks past the buffer, a side file) or else by the commit, in
 * the commit's own transaction: a small write is then one commit (decision 006).
 */
export interface StagingArea {
  readonly content: number;
  readonly session: string;
  /** When the writer started (the row's `created_at`: the sweep's age of an abandoned staging area). */
  readonly createdAt: number;
  /** True once a committed transaction created its row. */
  stored: boolean;
}

/** What a {@link StagingWriter} needs from its driver: the database steps, each its own transaction. */
export interface StagingHost {
  /** Stored bytes kept inline before the rest goes to a side file (`Infinity`: never). */
  readonly inlineBytes: number;
  /** How each chunk is stored (compressed when that saves space, see `encodeChunkBytes`). */
  readonly compression: ChunkCompression;
  readonly blobs: BlobDirectory | undefined;
  /**
   * Inserts chunks with their bytes inline, in one transaction (creating the area's row if needed). Throws when
   * the staging area no longer exists.
   */
  insertInline(area: StagingArea, chunks: readonly StoredChunk[]): Promise<void>;
  /** Registers the staging area's side file (creating its row if needed). Throws when it no longer exists. */
  createFile(area: StagingArea): Promise<BlobFile>;
  /** Inserts index rows of chunks written to side files. Throws when the staging area no longer exists. */
  insertExternal(area: StagingArea, chunks: readonly ExternalChunk[]): Promise<void>;
  /** Deletes the staging area (if it has a row) and the side files nothing points at any more. */
  discard(area: StagingArea): Promise<void>;
}

/** Index rows of external chunks inserted per transaction while staging (the rest goes in with the commit). */
const ROW_BATCH = 256;
/**
 * Inline chunks kept in memory until the commit, which inserts them (and the staging area's row) in its own
 * transaction: a small write is then one commit. Past these bounds the buffered chunks are inserted in one
 * transaction while staging.
 */
const INLINE_BUFFER_BYTES = 1024 * 1024;
const INLINE_BUFFER_CHUNKS = 64;
/** Bytes handed to the file system but not yet written; past it, `write` waits for the oldest write. */
const MAX_BYTES_IN_FLIGHT = 16 * 1024 * 1024;
/**
 * Written bytes after which a background fdatasync starts, so the disk works while the caller still produces
 * chunks and the sync before the commit only waits for the last ones.
 */
const EARLY_SYNC_BYTES = 16 * 1024 * 1024;

interface OpenFile extends BlobFile {
  fd: number;
  /** Where the next chunk goes. */
  end: number;
}

/**
 * The sink of one staging area. Each chunk is first encoded as the store keeps it (compressed when that saves
 * space: `encodeChunkBytes`, in the thread pool for large chunks). Chunks are inserted inline as long as the
 * stored bytes fit in `inlineBytes` (so a content that fits is entirely inline). From the first chunk that does not fit
 * on, chunks go to one side file created for this staging area, at increasing offsets, with positional writes
 * that run in the background while the caller cuts and hashes the next chunk (a background fdatasync every
 * {@link EARLY_SYNC_BYTES} keeps the disk busy too); their index rows are inserted in batches. The chunk's bytes
 * must not change until the commit or abort (the service never reuses them). {@link finish} waits for the
 * writes, fsyncs the file and its directory, and returns the rows not inserted yet, for the commit's
 * transaction: so a side file is durable before the commit that makes it visible.
 */
export class StagingWriter implements ContentSink {
  readonly stagingId: string;
  readonly area: StagingArea;
  readonly #host: StagingHost;
  #stagedBytes = 0;
  #file: OpenFile | undefined;
  #pending: ExternalChunk[] = [];
  /** Inline chunks not inserted yet, and their bytes. */
  #inline: StoredChunk[] = [];
  #inlineBufferedBytes = 0;
  readonly #inFlight: Array<{ done: Promise<void>; bytes: number }> = [];
  #bytesInFlight = 0;
  #failure: unknown;
  /** Bytes written since the last background sync started, and that sync while it runs. */
  #unsyncedBytes = 0;
  #earlySync: Promise<void> | undefined;
  #state: 'open' | 'finished' | 'aborted' = 'open';

  constructor(area: StagingArea, host: StagingHost) {
    this.area = area;
    this.stagingId = String(area.content);
    this.#host = host;
  }

  /** The staging area's content id. */
  get content(): number {
    return this.area.content;
  }

  async write(chunk: Chunk): Promise<void> {
    if (this.#state !== 'open') throw this.#gone();
    if (this.#failure !== undefined) throw this.#failure;
    const { data, ...info } = chunk;
    const { codec, stored } = await encodeChunkBytes(data, this.#host.compression);
    if (this.#state !== 'open') throw this.#gone();
    const storedBytes = stored.byteLength;
    if (!this.#host.blobs || (!this.#file && this.#stagedBytes + storedBytes <= this.#host.inlineBytes)) {
      // Uncompressed bytes are copied: the chunk may be a view of a caller's piece, which a stream may reuse
      // once this write returns.
      this.#inline.push({ ...info, codec, stored: codec === 0 ? Buffer.from(stored) : stored });
      this.#inlineBufferedBytes += storedBytes;
      this.#stagedBytes += storedBytes;
      if (this.#inlineBufferedBytes >= INLINE_BUFFER_BYTES || this.#inline.length >= INLINE_BUFFER_CHUNKS) {
        await this.#host.insertInline(this.area, this.#inline);
        this.#inline = [];
        this.#inlineBufferedBytes = 0;
      }
      return;
    }
    const file = this.#file ?? (await this.#openFile(this.#host.blobs));
    const position = file.end;
    file.end += storedBytes;
    this.#stagedBytes += storedBytes;
    this.#pending.push({ ...info, codec, storedBytes, file: file.id, fileOffset: position });
    const done = writeFully(file.fd, stored, position).then(
      () => this.#wrote(file, storedBytes),
      (error: unknown) => {
        this.#failure ??= fileError(error, this.#host.blobs?.filePath(file.name) ?? file.name, 'write');
      },
    );
    this.#inFlight.push({ done, bytes: storedBytes });
    this.#bytesInFlight += storedBytes;
    while (this.#bytesInFlight > MAX_BYTES_IN_FLIGHT) await this.#settleOldest();
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#pending.length >= ROW_BATCH) {
      await this.#host.insertExternal(this.area, this.#pending);
      this.#pending = [];
    }
  }

  /**
   * Makes every staged byte durable and returns the rows still to insert (in the commit's transaction): inline
   * chunks with their bytes, and index rows of chunks in the side file. Idempotent: a commit whose transaction
   * failed can be retried (the rows are returned until {@link rowsInserted}) or aborted.
   */
  async finish(): Promise<{ inline: StoredChunk[]; external: ExternalChunk[] }> {
    if (this.#state === 'aborted') throw this.#gone();
    if (this.#state === 'open') {
      await this.#settleAll();
      if (this.#failure !== undefined) throw this.#failure;
      const file = this.#file;
      if (file) {
        const path = this.#host.blobs?.filePath(file.name) ?? file.name;
        try {
          await this.#earlySync;
          await syncData(file.fd);
        } catch (error) {
          throw fileError(error, path, 'sync');
        }
        await closeQuietly(file.fd);
        this.#host.blobs?.sync();
      }
      this.#state = 'finished';
    }
    return { inline: this.#inline, external: this.#pending };
  }

  /** A committed transaction inserted the rows {@link finish} returned (and the area's row, if it had none). */
  rowsInserted(): void {
    this.area.stored = true;
    this.#pending = [];
    this.#inline = [];
    this.#inlineBufferedBytes = 0;
  }

  async abort(): Promise<void> {
    if (this.#state === 'aborted') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'aborted';
    this.#pending = [];
    this.#inline = [];
    await this.#settleAll();
    await this.#earlySync;
    if (wasOpen && this.#file) await closeQuietly(this.#file.fd);
    await this.#host.discard(this.area);
  }

  /** Waits for the writes in flight and closes the side file, leaving the staging area for the sweep. */
  async release(): Promise<void> {
    if (this.#state !== 'open') return;
    this.#state = 'aborted';
    await this.#settleAll();
    await this.#earlySync;
    if (this.#file) await closeQuietly(this.#file.fd);
  }

  #wrote(file: OpenFile, bytes: number): void {
    this.#unsyncedBytes += bytes;
    if (this.#unsyncedBytes < EARLY_SYNC_BYTES || this.#earlySync || this.#state !== 'open') return;
    this.#unsyncedBytes = 0;
    // Only a head start: errors surface from the sync in finish(), which covers everything written.
    this.#earlySync = syncData(file.fd)
      .catch(() => undefined)
      .finally(() => {
        this.#earlySync = undefined;
      });
  }

  async #openFile(blobs: BlobDirectory): Promise<OpenFile> {
    const registered = await this.#host.createFile(this.area);
    this.#file = { ...registered, fd: blobs.create(registered.name), end: 0 };
    return this.#file;
  }

  async #settleOldest(): Promise<void> {
    const oldest = this.#inFlight.shift();
    if (!oldest) return;
    await oldest.done;
    this.#bytesInFlight -= oldest.bytes;
  }

  async #settleAll(): Promise<void> {
    while (this.#inFlight.length > 0) await this.#settleOldest();
  }

  #gone(): Error {
    return new Error(
      `Staging area ${this.content} no longer exists: it was ${this.#state === 'aborted' ? 'aborted' : 'already committed'}.`,
    );
  }
}

/** Writes all of `data` at `position` (a positional write may be short, e.g. when interrupted). */
async function writeFully(fd: number, data: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < data.byteLength) {
    const written = await new Promise<number>((resolve, reject) => {
      write(fd, data, done, data.byteLength - done, position + done, (error, bytes) =>
        error ? reject(error) : resolve(bytes),
      );
    });
    done += written;
  }
}

function syncData(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
}

function closeQuietly(fd: number): Promise<void> {
  return new Promise((resolve) => close(fd, () => resolve()));
}
