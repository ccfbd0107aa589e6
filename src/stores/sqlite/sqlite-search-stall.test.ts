import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { blockFor, probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { searchLogText } from '../../../test/support/stall-logs.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createSearchTool } from '../../tools/default/search-tool.js';
import { createSqliteDriver } from './index.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-first-search-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('SQLite first search over a large session', () => {
  it('answers from the part indexed so far with the progress, without stalling the event loop, and completes later', async () => {
    const driver = createSqliteDriver({ path: join(root, 'store.db') });
    // 64 KiB chunks: one indexing step (one chunk at least) stays short even on a loaded machine running the
    // whole suite; the mechanism is the one 256 KiB chunks use (bench:first-search measures those).
    const pad = createScratchpad({ driver, chunkSize: 64 * 1024 });
    for (let part = 0; part < 4; part += 1)
      await pad.write('s1', `log-${part}`, searchLogText(8, `marker${part}`));

    const first = await probeEventLoop(() => pad.search('s1', 'marker0 marker1 marker2 marker3'));
    expect(first.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
    const progress = first.value.indexing;
    expect(progress).toBeDefined();
    expect(progress!.done).toBeLessThan(progress!.total);
    expect(progress!.total).toBeGreaterThanOrEqual(32_000_000);
    const tool = await createSearchTool().execute({ query: 'marker0' }, { session: pad.session('s1') });
    expect(
      tool.text.split('\n').filter((line) => line.startsWith('Still indexing this session')),
    ).toHaveLength(1);
    expect(tool.data).toMatchObject({ ok: true, indexing: { total: progress!.total } });

    // Searching again while indexing goes on keeps answering, and the index grows.
    let latest = first.value;
    const probe = await probeEventLoop(async () => {
      while (latest.indexing) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        latest = await pad.search('s1', 'marker0 marker1 marker2 marker3');
      }
    });
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
    expect(latest.hits.map((hit) => hit.entry.name).sort()).toEqual(['log-0', 'log-1', 'log-2', 'log-3']);
    for (const hit of first.value.hits)
      expect(latest.hits.map((found) => found.entry.name)).toContain(hit.entry.name);
    await driver.close();
  });

  it('indexes on a thread of its own: the index grows while the event loop is held', async () => {
    const path = join(root, 'thread.db');
    const driver = createSqliteDriver({ path });
    const pad = createScratchpad({ driver, chunkSize: 64 * 1024 });
    await pad.write('s1', 'log', searchLogText(16, 'marker'));
    const raw = openRawConnection(path, { readOnly: true });
    const indexed = (): number =>
      (raw.prepare('SELECT count(*) AS count FROM chunks WHERE indexed = 1').get() as { count: number })
        .count;
    const search = pad.search('s1', 'marker');
    // The thread takes a request's steps while this thread is blocked; the loop's own steps could not.
    let grewWhileHeld = false;
    for (let attempt = 0; attempt < 50 && !grewWhileHeld; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const before = indexed();
      blockFor(150);
      grewWhileHeld = indexed() > before;
    }
    expect(grewWhileHeld).toBe(true);
    await search;
    raw.close();
    await driver.close();
  });

  it('deleting a large indexed entry does not stall the event loop, and searches never show it again', async () => {
    const path = join(root, 'delete.db');
    const driver = createSqliteDriver({ path });
    const pad = createScratchpad({ driver, chunkSize: 64 * 1024 });
    await pad.write('s1', 'big', searchLogText(40, 'gone'));
    await pad.write('s1', 'small', 'gone but kept');
    let indexed = await pad.search('s1', 'gone');
    while (indexed.indexing) indexed = await pad.search('s1', 'gone');
    expect(indexed.hits.map((hit) => hit.entry.name).sort()).toEqual(['big', 'small']);

    const raw = openRawConnection(path, { readOnly: true });
    const queuedRows = (): number =>
      (
        raw
          .prepare(
            `SELECT count(*) AS count FROM search_unindex JOIN chunks ON chunks.content = search_unindex.content
             WHERE chunks.indexed = 1`,
          )
          .get() as { count: number }
      ).count;
    // Un-indexing 40 MB at once held the loop for about half a second; it is queued, and worked off in short steps.
    const deleted = await probeEventLoop(() => pad.delete('s1', 'big'));
    expect(deleted.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
    expect(queuedRows()).toBeGreaterThan(0);
    expect((await pad.search('s1', 'gone')).hits.map((hit) => hit.entry.name)).toEqual(['small']);
    const drained = await probeEventLoop(() =>
      vi.waitFor(() => expect(queuedRows()).toBe(0), { timeout: 60_000, interval: 20 }),
    );
    expect(drained.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
    expect((await pad.search('s1', 'gone')).hits.map((hit) => hit.entry.name)).toEqual(['small']);
    raw.close();
    await driver.close();
  });
});
