import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryCopyRows, rowsBackToBack } from './binary-copy-rows.js';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** A binary COPY stream of `(int8, bytea)` rows as PostgreSQL writes it; `null` data is a NULL field. */
function copyStream(rows: readonly [bigint, Uint8Array | null][]): Buffer {
  const parts: Buffer[] = [SIGNATURE, Buffer.alloc(8)];
  for (const [id, data] of rows) {
    const head = Buffer.alloc(2 + 4 + 8 + 4);
    head.writeInt16BE(2, 0);
    head.writeInt32BE(8, 2);
    head.writeBigInt64BE(id, 6);
    head.writeInt32BE(data === null ? -1 : data.byteLength, 14);
    parts.push(head);
    if (data !== null) parts.push(Buffer.from(data));
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  parts.push(trailer);
  return Buffer.concat(parts);
}

function parse(pieces: readonly Uint8Array[]): Map<string, Uint8Array> {
  const rows = new BinaryCopyRows();
  for (const piece of pieces) rows.push(piece);
  return new Map(rows.finish().map((row) => [String(row.integers[0]), row.data]));
}

/** A binary COPY stream of rows of `int8` fields and a `bytea`. */
function wideCopyStream(rows: readonly [bigint[], Uint8Array][]): Buffer {
  const parts: Buffer[] = [SIGNATURE, Buffer.alloc(8)];
  for (const [integers, data] of rows) {
    const head = Buffer.alloc(2 + 12 * integers.length + 4);
    head.writeInt16BE(integers.length + 1, 0);
    integers.forEach((integer, index) => {
      head.writeInt32BE(8, 2 + 12 * index);
      head.writeBigInt64BE(integer, 6 + 12 * index);
    });
    head.writeInt32BE(data.byteLength, 2 + 12 * integers.length);
    parts.push(head, Buffer.from(data));
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  parts.push(trailer);
  return Buffer.concat(parts);
}

/** `stream` cut at `cuts` (offsets, any order). */
function cut(stream: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((each) => each % (stream.byteLength + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const each of [...at, stream.byteLength]) {
    pieces.push(stream.subarray(from, each));
    from = each;
  }
  return pieces;
}

describe('BinaryCopyRows', () => {
  it('reads every row whole, however the stream is cut, and copies the bytes out of the pieces', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }), fc.uint8Array({ maxLength: 300 })), {
          maxLength: 6,
        }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (rows, cuts) => {
          const stream = copyStream(rows);
          const pieces = cut(stream, cuts);
          const parsed = parse(pieces);
          for (const piece of pieces) piece.fill(0xee);
          expect(parsed).toEqual(new Map(rows.map(([id, data]) => [id.toString(), new Uint8Array(data)])));
        },
      ),
    );
  });

  it('reads an empty bytea as empty bytes, and leaves a NULL out (as a row not found)', () => {
    const stream = copyStream([
      [7n, new Uint8Array(0)],
      [8n, null],
      [9n, Uint8Array.of(0, 1, 0)],
    ]);
    for (let split = 0; split <= stream.byteLength; split++) {
      const parsed = parse([stream.subarray(0, split), stream.subarray(split)]);
      expect([...parsed.keys()]).toEqual(['7', '9']);
      expect(parsed.get('7')).toEqual(new Uint8Array(0));
      expect(parsed.get('9')).toEqual(Uint8Array.of(0, 1, 0));
    }
  });

  it('reads a large row sent in many pieces, and a stream with no rows', () => {
    const large = Buffer.alloc(5 * 1024 * 1024);
    for (let index = 0; index < large.byteLength; index++) large[index] = (index * 31) % 251;
    const stream = copyStream([[1n, large]]);
    const pieces: Buffer[] = [];
    for (let at = 0; at < stream.byteLength; at += 65_536) pieces.push(stream.subarray(at, at + 65_536));
    const parsed = parse(pieces).get('1') ?? new Uint8Array(0);
    expect(parsed.byteLength).toBe(large.byteLength);
    // Compared as one Buffer comparison: a deep equality of 5 MiB element by element takes half a minute.
    expect(large.equals(parsed)).toBe(true);
    expect(parse([copyStream([])]).size).toBe(0);
  });

  it('reads rows of several int8 fields before the bytea, however the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }).chain((fields) =>
          fc.tuple(
            fc.constant(fields),
            fc.array(
              fc.tuple(
                fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), {
                  minLength: fields,
                  maxLength: fields,
                }),
                fc.uint8Array({ maxLength: 100 }),
              ),
              { maxLength: 5 },
            ),
          ),
        ),
        fc.array(fc.nat(), { maxLength: 12 }),
        ([fields, rows], cuts) => {
          const parser = new BinaryCopyRows(fields);
          for (const piece of cut(wideCopyStream(rows), cuts)) parser.push(piece);
          expect(parser.finish()).toEqual(
            rows.map(([integers, data]) => ({ integers, data: new Uint8Array(data) })),
          );
        },
      ),
    );
    // A row with a field count other than the parser's is refused.
    const parser = new BinaryCopyRows(3);
    expect(() => parser.push(wideCopyStream([[[1n, 2n], Uint8Array.of(1)]]))).toThrow(/a row of 3 fields/);
  });

  it('reports a stream that is not binary COPY rows, or stops short, as STORE_CORRUPT', () => {
    const good = copyStream([[1n, Uint8Array.of(1, 2, 3)]]);
    const code = (run: () => unknown): string => {
      try {
        run();
        return 'ok';
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    };
    expect(code(() => parse([Buffer.from('1\tabc\n')]))).toBe('STORE_CORRUPT');
    expect(code(() => parse([good.subarray(0, good.byteLength - 1)]))).toBe('STORE_CORRUPT');
    expect(code(() => parse([good.subarray(0, good.byteLength - 4)]))).toBe('STORE_CORRUPT');
    expect(code(() => parse([good, Buffer.of(0)]))).toBe('STORE_CORRUPT');
    const threeFields = Buffer.from(good);
    threeFields.writeInt16BE(3, SIGNATURE.byteLength + 8);
    expect(code(() => parse([threeFields]))).toBe('STORE_CORRUPT');
    const extension = Buffer.from(good);
    extension.writeInt32BE(4, SIGNATURE.byteLength + 4);
    expect(code(() => parse([extension]))).toBe('STORE_CORRUPT');
  });
});

describe('rows placed back to back', () => {
  it('property: rows of the expected sizes lie in one buffer in the listed order, whatever order they arrive in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.bigInt({ min: 1n, max: 10n ** 12n }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.uint8Array({ minLength: 0, maxLength: 40 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer(),
        (ids, datas, sizeKinds, cuts, seed) => {
          const listed = ids.map(String);
          // Most sizes are right; some are off by one, unknown (-1), or the row is not listed at all.
          const sizes = ids.map((_, index) => {
            const length = (datas[index] as Uint8Array).byteLength;
            const kind = sizeKinds[index] as number;
            return kind === 1 ? length + 1 : kind === 2 ? -1 : length;
          });
          const arriving = ids.map((id, index) => [id, datas[index] as Uint8Array] as [bigint, Uint8Array]);
          for (let index = arriving.length - 1; index > 0; index--) {
            const other = Math.abs(seed + index * 7919) % (index + 1);
            [arriving[index], arriving[other]] = [arriving[other] as never, arriving[index] as never];
          }
          const unlisted = sizeKinds[0] === 3 ? 1 : 0;
          const rows = new BinaryCopyRows(1, rowsBackToBack(listed.slice(unlisted), sizes.slice(unlisted)));
          for (const piece of cut(copyStream(arriving), cuts)) rows.push(piece);
          const found = new Map(rows.finish().map((row) => [String(row.integers[0]), row.data]));
          ids.forEach((id, index) => {
            expect(Buffer.from(found.get(String(id)) as Uint8Array)).toEqual(
              Buffer.from(datas[index] as Uint8Array),
            );
          });
          // The placed rows (listed, non-empty, of the size given) are in one buffer, each where the sizes listed
          // before it put it: right after the row before when that one came with its size.
          let offset = 0;
          let buffer: ArrayBufferLike | undefined;
          ids.forEach((id, index) => {
            if (index < unlisted) return;
            const size = sizes[index] as number;
            const data = found.get(String(id)) as Uint8Array;
            if (size > 0 && size === data.byteLength) {
              buffer ??= data.buffer;
              expect(data.buffer).toBe(buffer);
              expect(data.byteOffset).toBe(offset);
            }
            if (size > 0) offset += size;
          });
        },
      ),
    );
  });
});
