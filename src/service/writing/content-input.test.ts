import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createScratchpad } from '../scratchpad.js';
import { contentPieces } from './content-input.js';

async function bytesOf(pieces: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const piece of pieces) parts.push(piece);
  return Buffer.concat(parts);
}

/** `text` cut at the given UTF-16 positions, anywhere: inside a surrogate pair included. */
function cutAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(text.slice(start, point));
    start = point;
  }
  pieces.push(text.slice(start));
  return pieces;
}

describe('contentPieces', () => {
  it('encodes a stream of string pieces as the whole text, whatever cuts a surrogate pair in two', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        async (text, cuts, asStream) => {
          const pieces = cutAt(text, cuts);
          const input = asStream
            ? new ReadableStream<string>({
                start(controller) {
                  for (const piece of pieces) controller.enqueue(piece);
                  controller.close();
                },
              })
            : pieces;
          expect((await bytesOf(contentPieces(input))).equals(Buffer.from(text, 'utf8'))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps bytes between string pieces in their place', async () => {
    const input = ['a\ud83d', '\ude00', Buffer.from('-'), 'b'];
    expect((await bytesOf(contentPieces(input))).toString('utf8')).toBe('a😀-b');
  });

  it('refuses a lone surrogate wherever it is, saying where, and stores nothing', async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
    await session.write('kept', 'the old text');
    const cases: Array<[string, Parameters<typeof session.write>[1], number]> = [
      ['string', 'ab\ud800cd', 2],
      ['low half alone', '\ude00 tail', 0],
      ['stream, cut pair then a lone high half at the end', ['a\ud83d', '\ude00b', 'c\ud83d'], 5],
      ['bytes after a high half', ['x\ud83d', Buffer.from('y')], 1],
    ];
    for (const [label, input, index] of cases) {
      for (const name of ['new', 'kept']) {
        let thrown: unknown;
        try {
          await session.write(name, input);
        } catch (error) {
          thrown = error;
        }
        expect(ScratchpadError.hasCode(thrown, 'INVALID_ARGUMENT'), label).toBe(true);
        expect((thrown as ScratchpadError).details.index, label).toBe(index);
      }
    }
    expect(await session.find('new')).toBeUndefined();
    expect((await session.read('kept')).content).toBe('the old text');
  });
});
