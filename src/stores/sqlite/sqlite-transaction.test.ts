import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ImmediateTransaction } from './sqlite-transaction.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-transaction-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('ImmediateTransaction.runWhenFree', () => {
  it('writers woken together each run their whole transaction (BEGIN, body and COMMIT in one turn)', async () => {
    const path = join(root, 'woken.db');
    const holder = openRawConnection(path);
    holder.pragma('journal_mode = WAL');
    holder.exec('CREATE TABLE t (x)');
    const database = openRawConnection(path);
    database.pragma('busy_timeout = 0');
    const transaction = new ImmediateTransaction(database, 5_000);
    holder.exec('BEGIN IMMEDIATE');
    const writes = [1, 2, 3].map((x) =>
      transaction.runWhenFree(() => database.prepare('INSERT INTO t (x) VALUES (?)').run(x)),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    holder.exec('COMMIT');
    // What the store does when its index thread ends a step: every waiting writer tries at once.
    transaction.lockReleased();
    await Promise.all(writes);
    expect(database.prepare('SELECT x FROM t ORDER BY x').all()).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
    holder.close();
    database.close();
  });
});
