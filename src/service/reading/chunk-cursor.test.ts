import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChunkAxis } from '../../core/chunk.js';
import type { EntryRecord } from '../../core/entry.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createScratchpad } from '../scratchpad.js';
import { ChunkCursor } from './chunk-cursor.js';

const AXES: ChunkAxis[] = ['byte', 'char', 'line'];

async function stored(text: string, chunkSize = 16) {
  const driver = createMemoryDriver();
  const pad = createScratchpad({ driver, chunkSize });
  await pad.write('s', 'doc', text);
  return { driver, pad, record: (await driver.doGetEntry('s', 'doc')) as EntryRecord };
}

describe('ChunkCursor.locate', () => {
  it('answers what the driver answers, on every axis, whatever the cursor has read', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[ab\né🌍]{0,120}$/u),
        fc.array(fc.nat(12), { maxLength: 4 }),
        fc.array(fc.tuple(fc.constantFrom(...AXES), fc.integer({ min: -2, max: 130 })), { maxLength: 12 }),
        async (text, read, questions) => {
          const { driver, record } = await stored(text);
          const cursor = new ChunkCursor(driver, record);
          for (const seq of read) if (seq < record.chunkCount) await cursor.chunk(seq);
          for (const [axis, position] of questions) {
            expect(await cursor.locate(axis, position)).toBe(
              await driver.doLocateChunk(record, axis, position),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a slice inside one chunk asks the driver to locate once, not once per end and description', async () => {
    const { driver, pad } = await stored(`${'line of text\n'.repeat(40)}`, 256);
    const locate = driver.doLocateChunk.bind(driver);
    let asked = 0;
    driver.doLocateChunk = (record, axis, position) => {
      asked++;
      return locate(record, axis, position);
    };
    const read = await pad.read('s', 'doc', { type: 'range', start: 300, end: 340 });
    expect(read.content).toBe('line of text\n'.repeat(40).slice(300, 340));
    expect(read.location).toMatchObject({ start: 300, end: 340, lines: { first: 24, last: 27 } });
    expect(asked).toBe(1);
  });
});
