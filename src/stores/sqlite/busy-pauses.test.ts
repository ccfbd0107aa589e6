import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { isBusy, untilNotBusy } from './busy-pauses.js';
import { openRawConnection, type RawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-busy-pauses-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Two connections to one new WAL file: `holder` takes the write lock, `waiter` (busy_timeout 0) is refused. */
function twoConnections(name: string): { holder: RawConnection; waiter: RawConnection } {
  const path = join(root, name);
  const holder = openRawConnection(path);
  holder.pragma('journal_mode = WAL');
  holder.exec('CREATE TABLE t (x)');
  const waiter = openRawConnection(path);
  waiter.pragma('busy_timeout = 0');
  return { holder, waiter };
}

/** An attempt SQLite refuses with SQLITE_BUSY while `holder` holds the write lock (a real SQLite error). */
function takeWriteLock(waiter: RawConnection): () => 'locked' {
  return () => {
    waiter.exec('BEGIN IMMEDIATE');
    waiter.exec('ROLLBACK');
    return 'locked';
  };
}

describe('untilNotBusy', () => {
  it('tries again while SQLite answers SQLITE_BUSY, leaving the event loop free, until the lock is free', async () => {
    const { holder, waiter } = twoConnections('released.db');
    holder.exec('BEGIN IMMEDIATE');
    const release = setTimeout(() => holder.exec('COMMIT'), 200);
    let tries = 0;
    const attempt = takeWriteLock(waiter);
    const probe = await probeEventLoop(() =>
      untilNotBusy(() => {
        tries += 1;
        return attempt();
      }, 5_000),
    );
    clearTimeout(release);
    expect(probe.value).toBe('locked');
    expect(tries).toBeGreaterThan(1);
    expect(probe.worstDelayMs).toBeLessThan(TEST_STALL_BOUND_MS);
    holder.close();
    waiter.close();
  });

  it("throws SQLite's busy error after the timeout, and any other error at once", async () => {
    const { holder, waiter } = twoConnections('held.db');
    holder.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const error = await untilNotBusy(takeWriteLock(waiter), 150).catch((caught: unknown) => caught);
    expect(isBusy(error)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    let tries = 0;
    const other = await untilNotBusy(() => {
      tries += 1;
      return waiter.prepare('SELECT * FROM missing').get();
    }, 5_000).catch((caught: unknown) => caught);
    expect(isBusy(other)).toBe(false);
    expect(tries).toBe(1);
    holder.exec('ROLLBACK');
    holder.close();
    waiter.close();
  });

  it('stops when beforeRetry throws (a store closed while a read waited)', async () => {
    const { holder, waiter } = twoConnections('closed.db');
    holder.exec('BEGIN IMMEDIATE');
    const closed = new Error('closed');
    const error = await untilNotBusy(takeWriteLock(waiter), 5_000, {
      beforeRetry: () => {
        throw closed;
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBe(closed);
    holder.exec('ROLLBACK');
    holder.close();
    waiter.close();
  });
});
