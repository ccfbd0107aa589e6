import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { Mnestome } from '../../../packages/runtime/src/mnestome/mnestome.js';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { ScratchpadError } from '../../core/errors.js';
import { StateDatabase } from './state-database.js';
import { openRawConnection, type RawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-state-database-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Longer than the stall bound: an operation waiting in this thread (SQLite's busy handler sleeps) would show it. */
const HOLD_MS = 1000;

const SCHEMA = 'CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)';

/** A second connection holding the write lock, as another process's transaction would. */
function holdWriteLock(path: string): RawConnection {
  const other = openRawConnection(path);
  other.exec('BEGIN IMMEDIATE');
  return other;
}

describe('StateDatabase waiting for another connection’s lock', () => {
  it('waits without blocking the event loop, and commits once the lock is released', async () => {
    const path = join(root, 'released.db');
    const mnestome = Mnestome.open(path);
    const other = holdWriteLock(path);
    let landed = false;
    const recorded = mnestome
      .recordPassing({ src: 'fs_read', dst: 'fs_write', dstExists: true })
      .then((passage) => {
        landed = true;
        return passage;
      });
    const held = await probeEventLoop(async () => {
      await sleep(HOLD_MS);
      // Reads do not wait for the writer in WAL mode.
      expect(await mnestome.list()).toEqual([]);
    });
    expect(held.worstDelayMs).toBeLessThan(TEST_STALL_BOUND_MS);
    expect(landed).toBe(false);
    other.exec('COMMIT');
    other.close();
    expect((await recorded).uses).toBe(1);
    expect((await mnestome.list()).map((passage) => passage.dst)).toEqual(['fs_write']);
    mnestome.close();
  });

  it('fails with STORE_UNAVAILABLE after the busy timeout when the lock is never released, rolled back', async () => {
    const path = join(root, 'held.db');
    const state = StateDatabase.open(path, SCHEMA, HOLD_MS);
    const other = holdWriteLock(path);
    const started = Date.now();
    const probe = await probeEventLoop(() =>
      state
        .transaction((database) => database.prepare("INSERT INTO counters VALUES ('a', 1)").run())
        .then(
          () => undefined,
          (error: unknown) => error,
        ),
    );
    expect(probe.worstDelayMs).toBeLessThan(TEST_STALL_BOUND_MS);
    expect(Date.now() - started).toBeGreaterThanOrEqual(HOLD_MS - 50);
    expect(ScratchpadError.hasCode(probe.value, 'STORE_UNAVAILABLE')).toBe(true);
    expect((probe.value as ScratchpadError).message).toContain(`${HOLD_MS} ms`);
    other.exec('ROLLBACK');
    other.close();
    // Nothing was left half-done: the next transaction runs and sees only its own row.
    await state.transaction((database) => database.prepare("INSERT INTO counters VALUES ('b', 2)").run());
    expect(await state.run((database) => database.prepare('SELECT name FROM counters').all())).toEqual([
      { name: 'b' },
    ]);
    state.close();
  });

  it('rolls a transaction back when its body throws, and reports the body’s error', async () => {
    const state = StateDatabase.open(join(root, 'throws.db'), SCHEMA);
    await expect(
      state.transaction((database) => {
        database.prepare("INSERT INTO counters VALUES ('a', 1)").run();
        throw new Error('body failed');
      }),
    ).rejects.toThrow('body failed');
    expect(
      await state.run((database) => database.prepare('SELECT count(*) AS n FROM counters').get()),
    ).toEqual({
      n: 0,
    });
    state.close();
  });
});
