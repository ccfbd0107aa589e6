import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EDGE_BYTES, type Frame, LineFramer } from './line-framer.js';

function frames(framer: LineFramer, chunks: Buffer[]): Frame[] {
  return chunks.flatMap((chunk) => framer.push(chunk));
}

function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let last = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(last, point));
    last = point;
  }
  pieces.push(bytes.subarray(last));
  return pieces;
}

describe('LineFramer', () => {
  it('yields the same lines however the stream is cut (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 40 }).map((text) => text.replace(/\n/g, ' ')),
          { maxLength: 12 },
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        (lines, cuts) => {
          const stream = Buffer.from(lines.map((line) => `${line}\n`).join(''));
          const got = frames(new LineFramer(Number.POSITIVE_INFINITY), split(stream, cuts));
          expect(got.map((frame) => (frame.type === 'line' ? frame.line.toString() : '!'))).toEqual(
            lines.map((line) => line.replace(/\r$/, '')),
          );
        },
      ),
    );
  });

  it('skips a line over the limit, keeping its length and ends, and goes on with the next', () => {
    const framer = new LineFramer(100);
    const big = `{"method":"x","params":"${'a'.repeat(50_000)}","jsonrpc":"2.0","id":42}`;
    const stream = Buffer.from(`small\n${big}\r\nafter\n`);
    const got = frames(framer, split(stream, [3, 4000, 4001, 30_000]));
    expect(got).toHaveLength(3);
    expect(got[0]).toEqual({ type: 'line', line: Buffer.from('small') });
    expect(got[1]).toMatchObject({ type: 'oversized', bytes: big.length + 1 });
    const skipped = got[1] as Extract<Frame, { type: 'oversized' }>;
    expect(skipped.head.toString()).toBe(big.slice(0, EDGE_BYTES));
    expect(skipped.tail.toString()).toBe(big.slice(-(EDGE_BYTES - 1)));
    expect(got[2]).toEqual({ type: 'line', line: Buffer.from('after') });
    expect(framer.pendingBytes).toBe(0);
  });
});
