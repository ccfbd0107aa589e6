import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchpad } from '../../service/scratchpad.js';
import { createSqliteDriver } from './index.js';
import { listEntriesSql } from './list-query.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './sqlite-schema.js';
import { openRawConnection, type RawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-entry-indexes-'));
let counter = 0;
const freshPath = (): string => join(root, `store-${++counter}.db`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** `EXPLAIN QUERY PLAN` of a list query, one line. */
function plan(database: RawConnection, query: Parameters<typeof listEntriesSql>[0]): string {
  const { sql, parameters } = listEntriesSql(query);
  return (database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as Array<{ detail: string }>)
    .map((row) => row.detail)
    .join(' | ');
}

describe('entry indexes (decision 006)', () => {
  it('keeps every index equal to its table through replaces, metadata changes and appends that set only some columns', async () => {
    const path = freshPath();
    const pad = createScratchpad({ driver: createSqliteDriver({ path }), chunkSize: 64 });
    await pad.write('s1', 'a', 'first', { turn: 't1' });
    await pad.write('s1', 'a', 'second'); // turn kept, id kept, created kept
    await pad.write('s1', 'a', 'third', { turn: null, ttlMs: 60_000 }); // leaves the turn index, gains an expiry
    await pad.write('s1', 'a', ' and more'.repeat(20), { mode: 'append', turn: 't2' });
    await pad.update('s1', 'a', { pinned: true, metadata: { k: 'v' }, ttlMs: null });
    await pad.write('s1', 'b', 'other', { turn: 't2' });
    const entry = (await pad.read('s1', 'a')).entry;
    expect(entry).toMatchObject({
      turn: 't2',
      pinned: true,
      expiresAt: null,
      metadata: { k: 'v' },
      version: 5,
    });
    expect((await pad.list('s1', { turn: 't2' })).entries.map((listed) => listed.name)).toEqual(['a', 'b']);
    expect((await pad.list('s1', { turn: 't1' })).entries).toEqual([]);
    await pad.close();
    const database = openRawConnection(path);
    expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
    database.close();
  });

  it('migration 9 makes entries_by_turn hold only entries with a turn, and a turn’s listing still searches it', async () => {
    const path = freshPath();
    const legacy = openRawConnection(path);
    legacy.pragma('journal_mode = WAL');
    for (const migration of MIGRATIONS.slice(0, 8)) legacy.exec(migration);
    legacy.pragma('user_version = 8');
    legacy.pragma(`application_id = ${APPLICATION_ID}`);
    legacy.exec(`
      INSERT INTO sessions VALUES ('s1', 1, 1);
      INSERT INTO contents (id, session, created_at, committed) VALUES (1, 's1', 1, 1), (2, 's1', 2, 1);
      INSERT INTO entries VALUES
        ('s1', 'with-turn', '0123456789abcdef', 't1', NULL, NULL, 'text', 'text/plain', 1, 1, 1, 'x', 1, 1, NULL, 0,
          1, '{}', 1, 1, 0),
        ('s1', 'no-turn', '0123456789abcdee', NULL, NULL, NULL, 'text', 'text/plain', 1, 1, 1, 'x', 2, 2, NULL, 0,
          1, '{}', 2, 1, 0);
      INSERT INTO chunks (id, content, seq, byte_start, char_start, line_start, bytes, chars, newlines)
        VALUES (1, 1, 0, 0, 0, 0, 1, 1, 0), (2, 2, 0, 0, 0, 0, 1, 1, 0);
      INSERT INTO chunk_data VALUES (1, CAST('a' AS BLOB)), (2, CAST('b' AS BLOB));
    `);
    legacy.close();

    const pad = createScratchpad({ driver: createSqliteDriver({ path }) });
    expect((await pad.list('s1', { turn: 't1' })).entries.map((entry) => entry.name)).toEqual(['with-turn']);
    expect((await pad.list('s1')).entries.map((entry) => entry.name)).toEqual(['no-turn', 'with-turn']);
    await pad.write('s1', 'later', 'c', { turn: 't1' });
    expect((await pad.read('s1', 'no-turn')).content).toBe('b');
    await pad.close();

    const database = openRawConnection(path);
    expect(database.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const index = database
      .prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'entries_by_turn'")
      .get() as { sql: string };
    expect(index.sql).toMatch(/WHERE turn IS NOT NULL$/);
    for (const orderBy of ['name', 'createdAt', 'updatedAt'] as const) {
      expect(plan(database, { session: 's1', turn: 't1', orderBy, limit: 10 })).toMatch(
        /SEARCH entries USING INDEX entries_by_turn \(session=\? AND turn=\?\)/,
      );
    }
    expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
    database.close();
  });
});
