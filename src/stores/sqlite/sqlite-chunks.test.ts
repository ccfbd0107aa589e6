import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Chunk } from '../../core/chunk.js';
import { Chunker } from '../../core/chunker.js';
import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import { testRecord } from '../../testing/test-record.js';
import { createSqliteDriver, RETIRED_CONTENT_RETENTION_MS, type SqliteDriver } from './index.js';
import { openRawConnection, type RawConnection, tracedConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-chunks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

describe('SQLite chunk storage', () => {
  let clock: number;
  let path: string;
  let database: RawConnection;
  let driver: SqliteDriver;
  let pad: Scratchpad;
  const count = (sql: string, ...parameters: unknown[]): number =>
    (database.prepare(sql).get(...parameters) as { count: number }).count;

  beforeEach(() => {
    clock = 1_700_000_000_000;
    const directory = join(root, `case-${++counter}`);
    mkdirSync(directory);
    path = join(directory, 'store.db');
    database = openRawConnection(path);
    driver = createSqliteDriver({ database, now: () => clock });
    pad = createScratchpad({ driver, chunkSize: 64, now: () => clock });
  });
  afterEach(async () => {
    await driver.close();
    database.close();
  });

  it('abandoned staging areas survive a restart and are swept once old enough', async () => {
    const sink = await driver.doStage('s1');
    // Inline chunks are buffered until the commit or until 64 of them (1 MiB) are staged: write enough that some
    // reach the database before the "crash".
    for (const chunk of chunksOf('abandoned by a crashed writer '.repeat(200), 64)) await sink.write(chunk);
    const staged = count('SELECT count(*) AS count FROM chunks WHERE content = ?', Number(sink.stagingId));
    expect(staged).toBe(64);
    expect(count('SELECT count(*) AS count FROM chunk_data')).toBe(staged);

    // The writer "crashes": its driver is never closed (closing would discard the area); another one sweeps.
    const crashed = driver;
    driver = createSqliteDriver({ database, now: () => clock });
    pad = createScratchpad({ driver, chunkSize: 64, now: () => clock });
    clock += 30 * 60 * 1000;
    expect((await pad.gc()).staging).toBe(0);
    clock += 31 * 60 * 1000;
    expect((await pad.gc()).staging).toBe(1);
    await crashed.close();
    expect(count('SELECT count(*) AS count FROM contents')).toBe(0);
    expect(count('SELECT count(*) AS count FROM chunks')).toBe(0);
    expect(count('SELECT count(*) AS count FROM chunk_data')).toBe(0);
  });

  it('a small write stores nothing before its commit, and its commit is one transaction', async () => {
    const sink = await driver.doStage('s1');
    await sink.write(chunksOf('small', 64)[0] as Chunk);
    expect(count('SELECT count(*) AS count FROM contents')).toBe(0);
    const statements: string[] = [];
    const traced = tracedConnection(openRawConnection(path), (sql) => statements.push(sql));
    const other = createSqliteDriver({ database: traced, now: () => clock });
    const otherPad = createScratchpad({ driver: other, now: () => clock });
    await otherPad.write('s1', 'first', 'the first write also reserves a block of content ids');
    statements.length = 0;
    await otherPad.write('s1', 'note', 'a small note');
    expect(statements.filter((sql) => /^(BEGIN|COMMIT)/.test(sql))).toEqual(['BEGIN IMMEDIATE', 'COMMIT']);
    // Both drivers reserved content ids on the same file: they never collide, and a later driver starts past both.
    const result = await driver.doCommit({
      mode: 'replace',
      record: testRecord({ contentId: sink.stagingId, chunkCount: 1 }),
      expectedVersion: null,
      stagingId: sink.stagingId,
    });
    expect(result.ok).toBe(true);
    const ids = (database.prepare('SELECT content FROM entries').all() as Array<{ content: number }>).map(
      (row) => row.content,
    );
    expect(new Set(ids).size).toBe(3);
    await other.close();
    traced.close();
    const later = await createSqliteDriver({ database, now: () => clock }).doStage('s1');
    expect(Number(later.stagingId)).toBeGreaterThan(Math.max(...ids));
    await later.abort();
  });

  it('abort deletes a staging area at once; a commit of it then fails', async () => {
    const sink = await driver.doStage('s1');
    await sink.write(chunksOf('x'.repeat(100), 64)[0] as Chunk);
    await sink.abort();
    await sink.abort();
    expect(count('SELECT count(*) AS count FROM contents')).toBe(0);
    const record = testRecord({ contentId: sink.stagingId, chunkCount: 1 });
    await expect(
      driver.doCommit({ mode: 'replace', record, expectedVersion: null, stagingId: sink.stagingId }),
    ).rejects.toThrow(/does not exist/);
    await expect(sink.write(chunksOf('y'.repeat(10), 64)[0] as Chunk)).rejects.toThrow(/no longer exists/);
  });

  it('an append re-keys the staged chunks (index rows only) and keeps every offset contiguous', async () => {
    await pad.write('s1', 'log', `${'first part of the log ✓\n'.repeat(40)}`);
    const before = database.prepare('SELECT id, seq FROM chunks ORDER BY seq').all() as Array<{
      id: number;
      seq: number;
    }>;
    const current = (await driver.doGetEntry('s1', 'log')) as EntryRecord;
    const sink = await driver.doStage('s1');
    // Enough chunks that the first 64 are inserted while staging (the rest go in with the commit).
    for (const chunk of chunksOf('appended 😀 text\n'.repeat(300), 64)) await sink.write(chunk);
    const staged = database
      .prepare('SELECT id FROM chunks WHERE content = ? ORDER BY seq')
      .all(Number(sink.stagingId)) as Array<{ id: number }>;

    const keep = current.chunkCount;
    const result = await driver.doCommit({
      mode: 'append',
      record: { ...current, version: current.version + 1 },
      expectedVersion: current.version,
      stagingId: sink.stagingId,
      keepChunks: keep,
    });
    expect(result.ok).toBe(true);
    const after = database
      .prepare(
        'SELECT id, seq, byte_start, char_start, line_start, bytes, chars, newlines FROM chunks WHERE content = ? ORDER BY seq',
      )
      .all(Number(current.contentId)) as Array<Record<string, number>>;
    // Kept chunks are the same rows; appended chunks are the staged rows, moved, not rewritten.
    expect(after.slice(0, keep).map((row) => row.id)).toEqual(before.map((row) => row.id));
    expect(staged).toHaveLength(64);
    expect(after.slice(keep, keep + staged.length).map((row) => row.id)).toEqual(staged.map((row) => row.id));
    expect(after.map((row) => row.seq)).toEqual(after.map((_, index) => index));
    for (let index = 1; index < after.length; index++) {
      const previous = after[index - 1] as Record<string, number>;
      const row = after[index] as Record<string, number>;
      expect(row.byte_start).toBe((previous.byte_start as number) + (previous.bytes as number));
      expect(row.char_start).toBe((previous.char_start as number) + (previous.chars as number));
      expect(row.line_start).toBe((previous.line_start as number) + (previous.newlines as number));
    }
    expect(count('SELECT count(*) AS count FROM contents')).toBe(1);
    expect(count('SELECT count(*) AS count FROM chunk_data')).toBe(after.length);
  });

  it('an append that rewrites a small tail chunk drops the old tail and keeps the rest', async () => {
    await pad.write('s1', 'log', 'a'.repeat(64 * 3 + 10));
    const tail = database.prepare('SELECT id FROM chunks WHERE seq = 3').get() as { id: number };
    await pad.write('s1', 'log', 'b'.repeat(20), { mode: 'append' });
    expect((await pad.read('s1', 'log')).content).toBe(`${'a'.repeat(64 * 3 + 10)}${'b'.repeat(20)}`);
    expect(count('SELECT count(*) AS count FROM chunks WHERE id = ?', tail.id)).toBe(0);
    expect(count('SELECT count(*) AS count FROM chunk_data WHERE id = ?', tail.id)).toBe(0);
    expect(count('SELECT count(*) AS count FROM chunks')).toBe(4);
  });

  it('a reader that resolved the entry before a replace still reads that version, until it is purged', async () => {
    await pad.write('s1', 'doc', 'version one '.repeat(30));
    const old = (await driver.doGetEntry('s1', 'doc')) as EntryRecord;
    await pad.write('s1', 'doc', 'version two');
    await pad.delete('s1', 'doc');
    const stale = await driver.doReadChunks(old, 0, old.chunkCount);
    expect(Buffer.concat(stale.map((chunk) => chunk.data)).toString()).toBe('version one '.repeat(30));

    clock += RETIRED_CONTENT_RETENTION_MS + 1;
    expect((await pad.gc()).staging).toBe(0);
    expect(count('SELECT count(*) AS count FROM contents')).toBe(0);
    expect(count('SELECT count(*) AS count FROM chunk_data')).toBe(0);
    const error = await driver.doReadChunks(old, 0, old.chunkCount).catch((caught: unknown) => caught);
    expect(ScratchpadError.hasCode(error, 'VERSION_CONFLICT')).toBe(true);
    expect((error as ScratchpadError).hint).toContain('Read it again');
    // The service retries such a read on the current version.
    expect((error as ScratchpadError).details).toMatchObject({ changedWhileReading: true });
  });

  it('a read racing a replace sees one whole version: the old one while retained, else the new one', async () => {
    await pad.write('s1', 'doc', 'old content '.repeat(20));
    const readChunks = driver.doReadChunks.bind(driver);
    let race: (() => Promise<void>) | undefined;
    driver.doReadChunks = async (record, start, end) => {
      const racing = race;
      race = undefined;
      await racing?.();
      return readChunks(record, start, end);
    };
    race = async () => {
      await pad.write('s1', 'doc', 'new content '.repeat(20));
    };
    expect((await pad.read('s1', 'doc', { type: 'range', start: 0, end: 24 })).content).toBe(
      'old content old content ',
    );
    race = async () => {
      await pad.write('s1', 'doc', 'newest text '.repeat(20));
      clock += RETIRED_CONTENT_RETENTION_MS + 1;
      await pad.write('s1', 'other', 'a commit purges what retired long enough ago');
    };
    const read = await pad.read('s1', 'doc', { type: 'range', start: 0, end: 24 });
    expect(read.content).toBe('newest text newest text ');
    expect(read.entry.version).toBe(3);
  });

  it('a deleted session’s contents are purged after the retention, by the next commit', async () => {
    await pad.write('s1', 'a', 'x'.repeat(300));
    await pad.write('s1', 'b', 'y'.repeat(300));
    await pad.deleteSession('s1');
    expect(count('SELECT count(*) AS count FROM contents WHERE retired_at IS NOT NULL')).toBe(2);
    clock += RETIRED_CONTENT_RETENTION_MS + 1;
    await pad.write('s2', 'c', 'z');
    expect(count('SELECT count(*) AS count FROM contents')).toBe(1);
    expect(count('SELECT count(*) AS count FROM chunks')).toBe(1);
  });

  it('locating a position is one indexed query per axis (the first chunk is in no axis index)', () => {
    for (const column of ['byte_start', 'char_start', 'line_start']) {
      const plan = database
        .prepare(
          `EXPLAIN QUERY PLAN SELECT seq FROM chunks WHERE content = ? AND ${column} <= ? AND seq > 0 ORDER BY ${column} DESC, seq DESC LIMIT 1`,
        )
        .all(1, 1000) as Array<{ detail: string }>;
      expect(plan.map((row) => row.detail).join(' ')).toMatch(
        new RegExp(`SEARCH chunks USING COVERING INDEX chunks_by_${column.split('_')[0]}`),
      );
    }
  });
});

function chunksOf(text: string, size: number): Chunk[] {
  const chunker = new Chunker(size);
  return [...chunker.push(Buffer.from(text)), ...chunker.flush()];
}
