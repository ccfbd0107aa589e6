import { describe, expect, it } from 'vitest';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createScratchpad } from '../scratchpad.js';

describe('reads racing a writer', () => {
  it('retry on the new version when the old content vanished mid-read', async () => {
    const driver = createMemoryDriver();
    const pad = createScratchpad({ driver, chunkSize: 16 });
    await pad.write('s', 'doc', 'old content '.repeat(10));
    // A writer replaces the entry between the reader's record lookup and its chunk reads.
    const readChunks = driver.doReadChunks.bind(driver);
    let raced = false;
    driver.doReadChunks = async (record, start, end) => {
      if (!raced) {
        raced = true;
        await pad.write('s', 'doc', 'new content '.repeat(10));
      }
      return readChunks(record, start, end);
    };
    const result = await pad.read('s', 'doc', { type: 'range', start: 20, end: 40 });
    expect(raced).toBe(true);
    expect(result.content).toBe('new content '.repeat(10).slice(20, 40));
    expect(result.entry.version).toBe(2);
    const grep = await pad.grep('s', 'doc', { pattern: 'new' });
    expect(grep.total).toBe(1);
  });

  it('reports real damage as STORE_CORRUPT', async () => {
    const driver = createMemoryDriver();
    const pad = createScratchpad({ driver, chunkSize: 16 });
    await pad.write('s', 'doc', 'x'.repeat(100));
    driver.doReadChunks = async () => [];
    await expect(pad.read('s', 'doc', { type: 'tail', count: 5 })).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
    });
  });
});
