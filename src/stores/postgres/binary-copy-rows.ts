import { ScratchpadError } from '../../core/errors.js';

/** The 11 bytes every binary `COPY` stream starts with (`PGCOPY\n\377\r\n\0`). */
const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);

const NOTHING = Buffer.alloc(0);

/** Where the parser is in the stream. */
type Step =
  | { at: 'header' }
  | { at: 'tuple' }
  | { at: 'integer-length' }
  | { at: 'integer' }
  | { at: 'data-length' }
  | { at: 'data'; bytes: Uint8Array; filled: number }
  | { at: 'end' };

/** A row: its leading `int8` fields, then its `bytea`. */
export interface BinaryCopyRow {
  integers: bigint[];
  data: Uint8Array;
}

/**
 * Where a row's bytes go, given its integer fields and its length: a view of `length` bytes the caller has room
 * for (so that consecutive rows can lie back to back in one buffer), or `undefined` for an array of their own.
 */
export type RowPlacement = (integers: readonly bigint[], length: number) => Uint8Array | undefined;

/**
 * Reads the rows of `COPY (SELECT <int8 fields>, data …) TO STDOUT (FORMAT binary)` (`integerFields` non-NULL
 * `int8` fields and a `bytea` per row), fed in pieces as the server sends them (a piece may end anywhere, also
 * inside a length). Each row's bytes are copied once, out of the piece (the connection reuses its buffer), into
 * where `place` says, else an array of their own. A NULL `data` leaves the row out, as a row not found. Anything
 * that is not this shape is `STORE_CORRUPT`.
 */
export class BinaryCopyRows {
  readonly rows: BinaryCopyRow[] = [];
  #step: Step = { at: 'header' };
  /** Bytes of a fixed-size field (header, count, length, integer) that a piece boundary split. */
  #pending = NOTHING;
  #integers: bigint[] = [];
  readonly #place: RowPlacement | undefined;

  constructor(
    readonly integerFields = 1,
    place?: RowPlacement,
  ) {
    if (!Number.isInteger(integerFields) || integerFields < 0 || integerFields > 64)
      throw new RangeError('integerFields must be an integer from 0 to 64.');
    this.#place = place;
  }

  /** Takes the next piece of the stream. */
  push(piece: Uint8Array): void {
    let offset = 0;
    while (offset < piece.byteLength) {
      const step = this.#step;
      if (step.at === 'end') throw malformed('bytes after the end of the rows');
      if (step.at === 'data') {
        const take = Math.min(step.bytes.byteLength - step.filled, piece.byteLength - offset);
        step.bytes.set(piece.subarray(offset, offset + take), step.filled);
        step.filled += take;
        offset += take;
        if (step.filled === step.bytes.byteLength) this.#row(step.bytes);
        continue;
      }
      const size = this.#fieldSize(step);
      const have = this.#pending.byteLength;
      const wanted = size - have;
      if (piece.byteLength - offset < wanted) {
        this.#pending = Buffer.concat([this.#pending, piece.subarray(offset)]);
        return;
      }
      const field =
        have === 0
          ? Buffer.from(piece.buffer, piece.byteOffset + offset, size)
          : Buffer.concat([this.#pending, piece.subarray(offset, offset + wanted)]);
      this.#pending = NOTHING;
      offset += wanted;
      this.#read(step, field);
    }
  }

  /** The rows, once the whole stream was pushed; throws when it stopped short of its end marker. */
  finish(): BinaryCopyRow[] {
    if (this.#step.at !== 'end') throw malformed('the stream ended inside its rows');
    return this.rows;
  }

  /** How many bytes the fixed-size field at `step` takes (the header: up to its extension length). */
  #fieldSize(step: Exclude<Step, { at: 'data' } | { at: 'end' }>): number {
    switch (step.at) {
      case 'header':
        return SIGNATURE.byteLength + 8;
      case 'tuple':
        return 2;
      case 'integer-length':
      case 'data-length':
        return 4;
      case 'integer':
        return 8;
    }
  }

  #read(step: Exclude<Step, { at: 'data' } | { at: 'end' }>, field: Buffer): void {
    switch (step.at) {
      case 'header': {
        if (!field.subarray(0, SIGNATURE.byteLength).equals(SIGNATURE))
          throw malformed('no binary COPY signature');
        const extension = field.readUInt32BE(SIGNATURE.byteLength + 4);
        if (extension !== 0) throw malformed('a header extension');
        this.#step = { at: 'tuple' };
        return;
      }
      case 'tuple': {
        const fields = field.readInt16BE(0);
        if (fields === -1) this.#step = { at: 'end' };
        else if (fields === this.integerFields + 1) this.#startRow();
        else throw malformed(`a row of ${fields} fields`);
        return;
      }
      case 'integer-length':
        if (field.readInt32BE(0) !== 8) throw malformed('a field that is not a non-NULL int8');
        this.#step = { at: 'integer' };
        return;
      case 'integer':
        this.#integers.push(field.readBigInt64BE(0));
        this.#step = {
          at: this.#integers.length === this.integerFields ? 'data-length' : 'integer-length',
        };
        return;
      case 'data-length': {
        const length = field.readInt32BE(0);
        if (length < -1) throw malformed('a negative length');
        if (length === -1) this.#step = { at: 'tuple' };
        else if (length === 0) this.#row(new Uint8Array(0));
        // Not zeroed: a row reaches `rows` only once every byte of it was copied in.
        else this.#step = { at: 'data', bytes: this.#target(length), filled: 0 };
        return;
      }
    }
  }

  /** Where the bytes of the row being read go: the caller's place for them when it has one of that size. */
  #target(length: number): Uint8Array {
    const placed = this.#place?.(this.#integers, length);
    return placed !== undefined && placed.byteLength === length ? placed : unfilled(length);
  }

  #startRow(): void {
    this.#integers = [];
    this.#step = { at: this.integerFields === 0 ? 'data-length' : 'integer-length' };
  }

  #row(data: Uint8Array): void {
    this.rows.push({ integers: this.#integers, data });
    this.#step = { at: 'tuple' };
  }
}

/**
 * A {@link RowPlacement} that puts each row whose first integer is `ids[i]` and whose length is `sizes[i]` right
 * after row `ids[i - 1]`'s place, in one buffer allocated when the first of them arrives, whatever order they come
 * in. A row of another length, an id not listed or one seen twice gets an array of its own.
 */
export function rowsBackToBack(ids: readonly string[], sizes: readonly number[]): RowPlacement {
  const offsets = new Map<string, { start: number; length: number }>();
  let total = 0;
  ids.forEach((id, index) => {
    const length = sizes[index] ?? -1;
    if (Number.isSafeInteger(length) && length > 0 && !offsets.has(id)) {
      offsets.set(id, { start: total, length });
      total += length;
    }
  });
  let arena: Uint8Array | undefined;
  return (integers, length) => {
    const place = offsets.get(String(integers[0]));
    if (place === undefined || place.length !== length) return undefined;
    offsets.delete(String(integers[0]));
    arena ??= new Uint8Array(Buffer.allocUnsafeSlow(total).buffer, 0, total);
    return arena.subarray(place.start, place.start + length);
  };
}

/** `length` bytes not zeroed (a plain Uint8Array over memory of its own): they are all written before use. */
function unfilled(length: number): Uint8Array {
  return new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
}

function malformed(what: string): ScratchpadError {
  return new ScratchpadError('STORE_CORRUPT', `The server's binary COPY of chunk rows has ${what}.`);
}
