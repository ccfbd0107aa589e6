import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRawConnection } from './test-fixtures/raw-connection.js';
import { WalCheckpointer } from './wal-checkpointer.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-checkpointer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Frames a checkpoint copied back into the database (`nBackfill` of the wal-index header, little-endian here). */
function backfilled(path: string): number {
  return readFileSync(`${path}-shm`).readUInt32LE(96);
}

describe('WAL checkpoints in their own thread', () => {
  it('starts after enough commits, checkpoints the WAL without the connection, and gives it back on stop', async () => {
    const path = join(root, 'store.db');
    const database = openRawConnection(path);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.exec('CREATE TABLE kv (id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
    const checkpointer = new WalCheckpointer(path, database);
    for (let commit = 0; commit < 255; commit++) checkpointer.committed();
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    checkpointer.committed();
    // The connection's own threshold is now far above what is written below: only the thread can checkpoint it.
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(16384);
    // One transaction of about 6,000 pages: nothing restarts the WAL (which resets the count) until it is checkpointed.
    const insert = database.prepare('INSERT INTO kv (data) VALUES (?)');
    database.transaction(() => {
      for (let row = 0; row < 6000; row++) insert.run(Buffer.alloc(3000, row % 251));
    })();
    const deadline = Date.now() + 10_000;
    while (backfilled(path) === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
    expect(backfilled(path)).toBeGreaterThan(0);
    await checkpointer.stop();
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(database.prepare('SELECT count(*) AS count FROM kv').get()).toEqual({ count: 6000 });
    database.close();
  });
});
