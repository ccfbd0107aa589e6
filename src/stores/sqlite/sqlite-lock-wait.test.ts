import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createSqliteDriver } from './index.js';
import { openRawConnection, type RawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-lock-wait-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Longer than the stall bound: a write that waited for the lock in this thread (SQLite's busy handler sleeps) would
 * show it as the loop's delay. The busy time does not count a sleep, so these tests read the delay.
 */
const HOLD_MS = 1000;

/** A second connection holding the write lock, as another process or the index thread's long commit would. */
function holdWriteLock(path: string): RawConnection {
  const other = openRawConnection(path);
  other.exec('BEGIN IMMEDIATE');
  other.exec('UPDATE contents SET created_at = created_at WHERE id = -1');
  return other;
}

describe('SQLite writes waiting for the write lock', () => {
  it('wait without blocking the event loop, and land once the lock is released', async () => {
    const path = join(root, 'released.db');
    const pad = createScratchpad({ driver: createSqliteDriver({ path, busyTimeoutMs: 30_000 }) });
    await pad.write('s1', 'before', 'written before the lock was taken');
    const other = holdWriteLock(path);
    let landed = false;
    // Two writers wait together: woken at once, each must still run its own transaction whole.
    const write = Promise.all([
      pad.write('s1', 'note', 'written while another connection held the lock'),
      pad.write('s1', 'second', 'also waiting'),
    ]).then((result) => {
      landed = true;
      return result;
    });
    const held = await probeEventLoop(async () => {
      await sleep(HOLD_MS);
      // Reads do not wait for the writer in WAL mode.
      expect((await pad.read('s1', 'before')).content).toBe('written before the lock was taken');
    });
    expect(held.worstDelayMs).toBeLessThan(TEST_STALL_BOUND_MS);
    expect(landed).toBe(false);
    other.exec('COMMIT');
    other.close();
    await write;
    expect((await pad.read('s1', 'note')).content).toBe('written while another connection held the lock');
    expect((await pad.read('s1', 'second')).content).toBe('also waiting');
    await pad.close();
  });

  it('fail with STORE_UNAVAILABLE after the busy timeout when the lock is never released, without blocking the loop', async () => {
    const path = join(root, 'held.db');
    const pad = createScratchpad({ driver: createSqliteDriver({ path, busyTimeoutMs: HOLD_MS }) });
    await pad.write('s1', 'before', 'written before the lock was taken');
    const other = holdWriteLock(path);
    const started = Date.now();
    const probe = await probeEventLoop(() =>
      Promise.allSettled([pad.write('s1', 'note', 'never written'), pad.delete('s1', 'before')]),
    );
    expect(probe.worstDelayMs).toBeLessThan(TEST_STALL_BOUND_MS);
    expect(Date.now() - started).toBeGreaterThanOrEqual(HOLD_MS - 50);
    for (const settled of probe.value) {
      expect(settled.status).toBe('rejected');
      const error = (settled as PromiseRejectedResult).reason;
      expect(ScratchpadError.hasCode(error, 'STORE_UNAVAILABLE')).toBe(true);
      expect((error as ScratchpadError).message).toContain(`${HOLD_MS} ms`);
    }
    other.exec('ROLLBACK');
    other.close();
    expect((await pad.list('s1')).entries.map((entry) => entry.name)).toEqual(['before']);
    await pad.close();
  });
});

describe('A connection passed in', () => {
  it('gets its own busy timeout back when the store closes (the store runs it with 0 while open)', async () => {
    const database = openRawConnection(join(root, 'passed.db'), { busyTimeoutMs: 1234 });
    const busyTimeout = (): unknown => database.pragma('busy_timeout', { simple: true });
    const driver = createSqliteDriver({ database, busyTimeoutMs: 3000 });
    expect(busyTimeout()).toBe(0);
    await createScratchpad({ driver }).write('s1', 'note', 'written');
    await driver.close();
    expect(busyTimeout()).toBe(1234);
    database.close();
  });
});
