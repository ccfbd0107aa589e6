import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_SIZE } from '../../core/chunk.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createScratchpad } from '../scratchpad.js';

/** A memory store that asks for chunks of `preferredChunkSize` bytes, as PostgreSQL does. */
function preferring(preferredChunkSize: number | undefined) {
  const driver = createMemoryDriver();
  return Object.assign(driver, { preferredChunkSize });
}

describe('the chunk size new content is written in', () => {
  const content = 'x'.repeat(600 * 1024);

  it("is the driver's preferred size when the config gives none, and the config's when it does", async () => {
    const cases = [
      { preferred: 64 * 1024, configured: undefined, size: 64 * 1024 },
      { preferred: 64 * 1024, configured: 100 * 1024, size: 100 * 1024 },
      { preferred: undefined, configured: undefined, size: DEFAULT_CHUNK_SIZE },
    ];
    for (const { preferred, configured, size } of cases) {
      const driver = preferring(preferred);
      const pad = createScratchpad({
        driver,
        ...(configured === undefined ? {} : { chunkSize: configured }),
      });
      await pad.write('s', 'big', content);
      const record = await driver.doGetEntry('s', 'big');
      expect(record?.chunkCount).toBe(Math.ceil(content.length / size));
      const slice = await pad.read('s', 'big', { type: 'range', start: 300_000, end: 302_000 });
      expect(slice.content).toBe('x'.repeat(2_000));
      await pad.close();
    }
  });
});
