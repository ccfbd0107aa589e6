import type { Chunk } from '../../core/chunk.js';

/** Chunks a staging writer buffers before it writes them to the database: at most this many… */
export const BUFFERED_CHUNKS = 64;
/** …or this many bytes (a chunk that reaches it is written with the ones before it). */
const BUFFERED_BYTES = 1024 * 1024;

/**
 * What a PostgreSQL staging writer holds in memory: the chunks not yet written, and whether its staging row
 * exists. A small content (under {@link BUFFERED_CHUNKS} chunks and {@link BUFFERED_BYTES}) never gets a
 * staging row: the commit inserts its chunks in its own transaction, so a small write is one durable commit,
 * and a killed process leaves nothing behind. A larger one opens its row with its first batch and writes each
 * batch in its own (asynchronous) commit, as before; the sweep drops the row and its chunks when nobody commits.
 */
export class StagingBuffer {
  /** The staging row exists (the first batch was written). */
  opened = false;
  /** Committed or aborted: writes throw. */
  closed = false;
  #chunks: Chunk[] = [];
  #bytes = 0;

  /** Keeps a copy of `chunk` (a stream may reuse its buffer); true when the buffer is full and must be written. */
  add(chunk: Chunk): boolean {
    this.#chunks.push({ ...chunk, data: Buffer.from(chunk.data) });
    this.#bytes += chunk.data.byteLength;
    return this.#chunks.length >= BUFFERED_CHUNKS || this.#bytes >= BUFFERED_BYTES;
  }

  /** The buffered chunks, in order (still buffered until {@link clear}). */
  get chunks(): readonly Chunk[] {
    return this.#chunks;
  }

  /** Forgets the buffered chunks once they are written. */
  clear(): void {
    this.#chunks = [];
    this.#bytes = 0;
  }
}
