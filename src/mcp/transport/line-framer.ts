/** One newline-delimited frame: a complete line, or a line that passed the limit and was skipped. */
export type Frame =
  | { type: 'line'; line: Buffer }
  | {
      type: 'oversized';
      /** The line's length in bytes (without its newline). */
      bytes: number;
      /** Its first and last bytes (up to {@link EDGE_BYTES} each), to recover the request id and method. */
      head: Buffer;
      tail: Buffer;
    };

/** Bytes kept from each end of a skipped line. */
export const EDGE_BYTES = 4096;

/**
 * Splits a byte stream into newline-delimited lines (JSON-RPC over stdio) in linear time: each byte is scanned
 * once and a line's chunks are joined once. A line longer than `maxBytes` is not buffered: only its length and
 * its two ends are kept, and the stream goes on at the next newline, so one huge message cannot exhaust memory
 * or end the connection. A trailing `\r` is dropped.
 */
export class LineFramer {
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #length = 0;
  #oversized = false;
  #head: Buffer = Buffer.alloc(0);
  #tail: Buffer = Buffer.alloc(0);

  /** `maxBytes`: longest line kept (`Infinity` for no limit but memory). */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Feeds a chunk; returns the frames it completed, in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.#add(chunk.subarray(start, newline));
      frames.push(this.#finish());
      start = newline + 1;
    }
    if (start < chunk.length) this.#add(chunk.subarray(start));
    return frames;
  }

  /** Bytes of the line in progress. */
  get pendingBytes(): number {
    return this.#length;
  }

  /** Drops the line in progress. */
  clear(): void {
    this.#reset();
  }

  #add(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#length += piece.length;
    if (!this.#oversized && this.#length > this.#maxBytes) {
      const line = Buffer.concat([...this.#chunks, piece]);
      this.#oversized = true;
      this.#chunks = [];
      this.#head = Buffer.from(line.subarray(0, EDGE_BYTES));
      this.#tail = Buffer.from(line.subarray(Math.max(0, line.length - EDGE_BYTES)));
      return;
    }
    if (this.#oversized) {
      if (this.#head.length < EDGE_BYTES) {
        this.#head = Buffer.concat([this.#head, piece.subarray(0, EDGE_BYTES - this.#head.length)]);
      }
      const joined = piece.length >= EDGE_BYTES ? piece : Buffer.concat([this.#tail, piece]);
      this.#tail = Buffer.from(joined.subarray(Math.max(0, joined.length - EDGE_BYTES)));
      return;
    }
    this.#chunks.push(piece);
  }

  #finish(): Frame {
    const frame: Frame = this.#oversized
      ? { type: 'oversized', bytes: this.#length, head: this.#head, tail: stripReturn(this.#tail) }
      : { type: 'line', line: stripReturn(Buffer.concat(this.#chunks, this.#length)) };
    this.#reset();
    return frame;
  }

  #reset(): void {
    this.#chunks = [];
    this.#length = 0;
    this.#oversized = false;
    this.#head = Buffer.alloc(0);
    this.#tail = Buffer.alloc(0);
  }
}

function stripReturn(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === 13 ? line.subarray(0, line.length - 1) : line;
}
