import type { Chunk } from './chunk.js';
import { asBuffer, countCodePoints, countNewlines, isAsciiBytes, isUtf8Bytes, utf8SafeCut } from './utf8.js';

/**
 * Cuts a stream of byte pieces into chunks of `chunkSize` bytes (the last may be shorter), never inside a UTF-8
 * sequence, and computes each chunk's offsets on the byte, character and line axes. It also tracks whether all
 * the content seen so far is well-formed UTF-8, so a writer can decide `text` vs `binary` at the end.
 * Memory stays O(chunkSize) whatever the input size.
 */
export class Chunker {
  readonly #chunkSize: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #seq = 0;
  #bytes = 0;
  #chars = 0;
  #newlines = 0;
  #utf8 = true;
  #lastByte = -1;

  constructor(chunkSize: number) {
    if (!Number.isInteger(chunkSize) || chunkSize < 16)
      throw new RangeError('chunkSize must be an integer >= 16');
    this.#chunkSize = chunkSize;
  }

  /** Adds a piece of content; returns the chunks it completed. */
  push(piece: Uint8Array): Chunk[] {
    return [...this.add(piece)];
  }

  /**
   * Adds a piece of content (at once) and returns the chunks it completed, cut one at a time as the caller takes
   * them: a writer that stores each chunk before taking the next overlaps its I/O with cutting, and holds one
   * chunk at a time whatever the piece's size. Take them all before the next `add` or `flush`.
   */
  add(piece: Uint8Array): Iterable<Chunk> {
    if (piece.byteLength === 0) return [];
    this.#pending.push(asBuffer(piece));
    this.#pendingBytes += piece.byteLength;
    return this.#complete();
  }

  *#complete(): Generator<Chunk> {
    // Keep one chunk's worth plus a little in pending so the UTF-8 cut can look ahead.
    while (this.#pendingBytes >= this.#chunkSize + 4) yield this.#cut(false);
  }

  /** Emits what is left as the final chunk(s). */
  flush(): Chunk[] {
    const out: Chunk[] = [];
    while (this.#pendingBytes > 0) out.push(this.#cut(true));
    return out;
  }

  /** Totals of everything emitted so far. */
  get totals(): { chunks: number; bytes: number; chars: number; newlines: number; lastByte: number } {
    return {
      chunks: this.#seq,
      bytes: this.#bytes,
      chars: this.#chars,
      newlines: this.#newlines,
      lastByte: this.#lastByte,
    };
  }

  /** False once a chunk was not well-formed UTF-8. */
  get isUtf8(): boolean {
    return this.#utf8;
  }

  #cut(final: boolean): Chunk {
    const joined =
      this.#pending.length === 1
        ? (this.#pending[0] as Buffer)
        : Buffer.concat(this.#pending, this.#pendingBytes);
    const limit = final ? Math.min(this.#chunkSize, joined.byteLength) : this.#chunkSize;
    const size = utf8SafeCut(joined, limit);
    const data = joined.subarray(0, size);
    const rest = joined.subarray(size);
    this.#pending = rest.byteLength > 0 ? [rest] : [];
    this.#pendingBytes = rest.byteLength;

    const ascii = isAsciiBytes(data);
    if (this.#utf8 && !ascii && !isUtf8Bytes(data)) this.#utf8 = false;
    const chars = ascii ? data.byteLength : countCodePoints(data);
    const newlines = countNewlines(data);
    const chunk: Chunk = {
      seq: this.#seq,
      byteStart: this.#bytes,
      charStart: this.#chars,
      lineStart: this.#newlines,
      bytes: data.byteLength,
      chars,
      newlines,
      // A view, not a copy: drivers write chunk bytes out (the memory driver copies what it keeps), so copying
      // every chunk only cost time and garbage. The view may pin the piece it came from while the chunk lives.
      data,
    };
    this.#seq++;
    this.#bytes += chunk.bytes;
    this.#chars += chunk.chars;
    this.#newlines += chunk.newlines;
    this.#lastByte = data[data.byteLength - 1] ?? this.#lastByte;
    return chunk;
  }
}

/** Lines in content with `newlines` `\n` characters of `bytes` total, whose last byte is `lastByte`. */
export function lineCount(bytes: number, newlines: number, lastByte: number): number {
  if (bytes === 0) return 0;
  return lastByte === 10 ? newlines : newlines + 1;
}
