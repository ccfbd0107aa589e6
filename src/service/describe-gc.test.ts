import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryDriver } from '../stores/memory/index.js';
import { createSqliteDriver } from '../stores/sqlite/index.js';
import { describeGc } from './describe-gc.js';
import { createScratchpad } from './scratchpad.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-describe-gc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('what gc says it freed', () => {
  it('on SQLite, which keeps removed content for readers: removed now, freed later, never "freed" now', async () => {
    let clock = 1_700_000_000_000;
    const driver = createSqliteDriver({ path: join(root, 'kept.db'), now: () => clock });
    const pad = createScratchpad({ driver, now: () => clock });
    await pad.write('s1', 'a', 'x'.repeat(2_500_000), { ttlMs: 1_000 });
    await pad.write('s1', 'b', 'y'.repeat(2_500_000), { ttlMs: 1_000 });
    clock += 2_000;
    const result = await pad.gc();
    expect(result.removed).toHaveLength(2);
    // The content is still on disk, kept for readers, and the report says so: nothing of it was freed yet.
    expect(result.held.bytes).toBeGreaterThanOrEqual(5_000_000);
    const lines = describeGc(result);
    expect(lines.join('\n')).not.toMatch(/freed 2/);
    expect(lines).toContain(
      'deleted now: 2 entries (their 5.0 MB of content stays on disk for readers, below); 0 abandoned partial writes',
    );
    expect(lines.at(-1)).toMatch(
      /^freed later: 2 contents of replaced or deleted entries \(5\.0 MB\), kept for readers until \d{4}-\d\d-\d\dT[\d:]+Z; a gc after that frees them$/,
    );
    await pad.close();
  });

  it('on a store that deletes content with its entry: deleted now, with the content, and nothing later', async () => {
    let clock = 1_700_000_000_000;
    const pad = createScratchpad({ driver: createMemoryDriver(), now: () => clock });
    await pad.write('s1', 'a', 'x'.repeat(2_500_000), { ttlMs: 1_000 });
    clock += 2_000;
    const lines = describeGc(await pad.gc());
    expect(lines).toEqual([
      'removed s1/a (2.5 MB, expired)',
      'deleted now: 1 entry with its content (2.5 MB); 0 abandoned partial writes',
    ]);
  });
});
