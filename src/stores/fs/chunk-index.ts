import type { ChunkAxis, ChunkInfo } from '../../core/chunk.js';
import { ScratchpadError } from '../../core/errors.js';

const MAGIC = 0x58495053; // "SPIX" read as a little-endian u32
const FORMAT = 1;
const HEADER_BYTES = 16;
const FIELDS = 3;
const MAX_U32 = 0xffff_ffff;

/**
 * The chunk index of one content file: per chunk its size in bytes, code points and newlines. On disk it is a
 * compact binary file (16-byte header `SPIX`, format, count, 0; then 12 bytes per chunk, little-endian u32
 * bytes/chars/newlines). In memory it also holds the prefix sums, so locating a position is a binary search and
 * finding a chunk's bytes in the content file is O(1). An index never changes once written (an append writes a
 * new one under a new content id), so parsed indexes can be cached by content id.
 */
export class ChunkIndex {
  readonly count: number;
  readonly #sizes: Uint32Array;
  readonly #starts: { byte: Float64Array; char: Float64Array; line: Float64Array };

  private constructor(sizes: Uint32Array) {
    this.count = sizes.length / FIELDS;
    this.#sizes = sizes;
    const byte = new Float64Array(this.count + 1);
    const char = new Float64Array(this.count + 1);
    const line = new Float64Array(this.count + 1);
    for (let seq = 0; seq < this.count; seq++) {
      byte[seq + 1] = (byte[seq] as number) + (sizes[seq * FIELDS] as number);
      char[seq + 1] = (char[seq] as number) + (sizes[seq * FIELDS + 1] as number);
      line[seq + 1] = (line[seq] as number) + (sizes[seq * FIELDS + 2] as number);
    }
    this.#starts = { byte, char, line };
  }

  /** An index from flat `[bytes, chars, newlines, …]` sizes. */
  static fromSizes(sizes: Uint32Array): ChunkIndex {
    if (sizes.length % FIELDS !== 0) throw new RangeError('chunk sizes come in triples');
    return new ChunkIndex(sizes);
  }

  /** Chunks `[0, keep)` of `kept` followed by every chunk of `appended` (their offsets follow on). */
  static join(kept: ChunkIndex, keep: number, appended: ChunkIndex): ChunkIndex {
    if (keep > kept.count) throw new RangeError(`cannot keep ${keep} of ${kept.count} chunks`);
    const sizes = new Uint32Array((keep + appended.count) * FIELDS);
    sizes.set(kept.#sizes.subarray(0, keep * FIELDS), 0);
    sizes.set(appended.#sizes, keep * FIELDS);
    return new ChunkIndex(sizes);
  }

  /** Parses an index file; `STORE_CORRUPT` (naming `path`) when it is not one. */
  static decode(data: Uint8Array, path: string): ChunkIndex {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const corrupt = (why: string): ScratchpadError =>
      new ScratchpadError('STORE_CORRUPT', `The chunk index ${path} is damaged: ${why}.`, {
        hint: 'Restore the file from a backup, or delete the entry and write it again.',
        details: { path },
      });
    if (data.byteLength < HEADER_BYTES) throw corrupt('it is shorter than its header');
    if (view.getUint32(0, true) !== MAGIC) throw corrupt('it does not start with SPIX');
    if (view.getUint32(4, true) !== FORMAT)
      throw corrupt(`format ${view.getUint32(4, true)} is not ${FORMAT}`);
    const count = view.getUint32(8, true);
    if (data.byteLength !== HEADER_BYTES + count * FIELDS * 4)
      throw corrupt(`${data.byteLength} bytes do not hold ${count} chunks`);
    const sizes = new Uint32Array(count * FIELDS);
    for (let index = 0; index < sizes.length; index++)
      sizes[index] = view.getUint32(HEADER_BYTES + index * 4, true);
    return new ChunkIndex(sizes);
  }

  /** The on-disk form. */
  encode(): Buffer {
    const out = Buffer.alloc(HEADER_BYTES + this.#sizes.length * 4);
    out.writeUInt32LE(MAGIC, 0);
    out.writeUInt32LE(FORMAT, 4);
    out.writeUInt32LE(this.count, 8);
    for (let index = 0; index < this.#sizes.length; index++)
      out.writeUInt32LE(this.#sizes[index] as number, HEADER_BYTES + index * 4);
    return out;
  }

  /** Start of chunk `seq` on `axis`; `seq === count` gives the total. */
  start(axis: ChunkAxis, seq: number): number {
    return this.#starts[axis][seq] as number;
  }

  /** Full facts of chunk `seq` (`0 ≤ seq < count`). */
  info(seq: number): ChunkInfo {
    return {
      seq,
      byteStart: this.#starts.byte[seq] as number,
      charStart: this.#starts.char[seq] as number,
      lineStart: this.#starts.line[seq] as number,
      bytes: this.#sizes[seq * FIELDS] as number,
      chars: this.#sizes[seq * FIELDS + 1] as number,
      newlines: this.#sizes[seq * FIELDS + 2] as number,
    };
  }

  /** The last chunk among the first `limit` whose start on `axis` is `<= position` (0 when there is none). */
  locate(axis: ChunkAxis, position: number, limit = this.count): number {
    const starts = this.#starts[axis];
    let low = 0;
    let high = Math.min(limit, this.count) - 1;
    let found = 0;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((starts[middle] as number) <= position) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }

  /** Memory the parsed index holds, for the cache's budget. */
  get footprint(): number {
    return this.#sizes.byteLength + 3 * (this.count + 1) * 8;
  }
}

/** Collects chunk sizes as they are staged, checking that the chunks arrive in order and back to back. */
export class ChunkIndexBuilder {
  #sizes = new Uint32Array(3 * 16);
  #count = 0;
  #bytes = 0;
  #chars = 0;
  #lines = 0;

  get count(): number {
    return this.#count;
  }
  get bytes(): number {
    return this.#bytes;
  }

  /** Records `chunk`; throws (a caller's bug) when it does not follow the previous one. */
  add(chunk: ChunkInfo & { data: Uint8Array }): void {
    if (
      chunk.seq !== this.#count ||
      chunk.byteStart !== this.#bytes ||
      chunk.charStart !== this.#chars ||
      chunk.lineStart !== this.#lines ||
      chunk.bytes !== chunk.data.byteLength
    ) {
      throw new Error(
        `Staged chunk ${chunk.seq} does not follow chunk ${this.#count - 1} (expected seq ${this.#count}, byteStart ${this.#bytes}).`,
      );
    }
    if (chunk.bytes > MAX_U32 || chunk.chars > MAX_U32 || chunk.newlines > MAX_U32)
      throw new RangeError('a chunk must be under 4 GiB');
    if ((this.#count + 1) * FIELDS > this.#sizes.length) {
      const grown = new Uint32Array(this.#sizes.length * 2);
      grown.set(this.#sizes);
      this.#sizes = grown;
    }
    this.#sizes.set([chunk.bytes, chunk.chars, chunk.newlines], this.#count * FIELDS);
    this.#count++;
    this.#bytes += chunk.bytes;
    this.#chars += chunk.chars;
    this.#lines += chunk.newlines;
  }

  build(): ChunkIndex {
    return ChunkIndex.fromSizes(this.#sizes.slice(0, this.#count * FIELDS));
  }
}
