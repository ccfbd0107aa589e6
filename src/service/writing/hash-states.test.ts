import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createScratchpad } from '../scratchpad.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('appends continue the hash instead of re-reading the entry', () => {
  it('reads only the last chunk when this process wrote the current version', async () => {
    const driver = createMemoryDriver();
    const pad = createScratchpad({ driver, chunkSize: 64 });
    let expected = 'x'.repeat(10_000);
    await pad.write('s', 'log', expected);
    const readChunks = driver.doReadChunks.bind(driver);
    const reads: number[] = [];
    driver.doReadChunks = async (record, start, end) => {
      const chunks = await readChunks(record, start, end);
      reads.push(chunks.length);
      return chunks;
    };
    for (let index = 0; index < 5; index++) {
      const line = `line ${index}\n`;
      expected += line;
      const { entry } = await pad.write('s', 'log', line, { mode: 'append' });
      expect(entry.sha256).toBe(sha256(expected));
    }
    // One chunk per append (the tail), not the ~157 chunks of the entry.
    expect(reads.every((count) => count <= 1)).toBe(true);
    expect((await pad.read('s', 'log')).content).toBe(expected);
  });

  it('falls back to hashing the content when another writer (or process) made the current version', async () => {
    const driver = createMemoryDriver();
    const first = createScratchpad({ driver, chunkSize: 64 });
    const second = createScratchpad({ driver, chunkSize: 64 });
    let expected = 'start\n';
    await first.write('s', 'log', expected);
    for (const [pad, text] of [
      [second, 'from second\n'],
      [first, 'from first\n'],
      [first, 'first again\n'],
      [second, 'second again\n'],
    ] as const) {
      expected += text;
      expect((await pad.write('s', 'log', text, { mode: 'append' })).entry.sha256).toBe(sha256(expected));
    }
    await second.write('s', 'log', 'replaced');
    expect((await first.write('s', 'log', '!', { mode: 'append' })).entry.sha256).toBe(sha256('replaced!'));
  });
});
