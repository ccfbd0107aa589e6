import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeGc } from '../../service/describe-gc.js';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import { createSqliteDriver, RETIRED_CONTENT_RETENTION_MS, type SqliteDriver } from './index.js';
import { openRawConnection, type RawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-search-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

describe('SQLite full-text search', () => {
  let database: RawConnection;
  let driver: SqliteDriver;
  let pad: Scratchpad;
  const count = (sql: string): number => (database.prepare(sql).get() as { count: number }).count;
  const indexedChunks = (): number => count('SELECT count(*) AS count FROM chunks WHERE indexed = 1');
  const indexRows = (): number => count('SELECT count(*) AS count FROM search_index_docsize');
  // Checks the index against its content (the chunks, through the search_source view).
  const assertIndexConsistent = (): void => {
    expect(() =>
      database.exec("INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)"),
    ).not.toThrow();
  };

  beforeEach(() => {
    const directory = join(root, `case-${++counter}`);
    mkdirSync(directory);
    database = openRawConnection(join(directory, 'store.db'));
    driver = createSqliteDriver({ database });
    pad = createScratchpad({ driver, chunkSize: 64 });
  });
  afterEach(async () => {
    await driver.close();
    database.close();
  });

  it('writes index nothing; the first search indexes its session only', async () => {
    await pad.write('s1', 'runbook', 'restart the database, then check the replication lag. '.repeat(20));
    await pad.write('s2', 'other', 'database in another session');
    expect(indexedChunks()).toBe(0);
    expect(indexRows()).toBe(0);
    const hits = (await pad.search('s1', 'replication')).hits;
    expect(hits.map((hit) => hit.entry.name)).toEqual(['runbook']);
    expect(hits[0]?.snippet).toContain('[replication]');
    const sessionOneChunks = count(
      "SELECT count(*) AS count FROM chunks JOIN entries ON entries.content = chunks.content WHERE session = 's1'",
    );
    expect(indexedChunks()).toBe(sessionOneChunks);
    expect(indexRows()).toBe(sessionOneChunks);
    assertIndexConsistent();
  });

  it('one hit per entry (its best chunk), ranked, and names are searchable', async () => {
    await pad.write(
      's1',
      'long-log',
      `${'nothing to see here. '.repeat(50)}timeout timeout timeout in the payment service`,
    );
    await pad.write('s1', 'short', 'a timeout once');
    await pad.write('s1', 'payment-notes', 'refund flow and card checks');
    const hits = (await pad.search('s1', 'timeout')).hits;
    expect(hits.map((hit) => hit.entry.name).sort()).toEqual(['long-log', 'short']);
    expect(new Set(hits.map((hit) => hit.entry.name)).size).toBe(hits.length);
    expect(hits[0]?.score).toBeGreaterThan(0);
    expect(hits[0]?.score).toBeGreaterThanOrEqual(hits[1]?.score ?? 0);
    const byName = (await pad.search('s1', 'payment')).hits;
    expect(byName.map((hit) => hit.entry.name)).toContain('payment-notes');
    expect(byName.find((hit) => hit.entry.name === 'payment-notes')?.snippet).toContain('[payment]');
  });

  it('replacing, appending and deleting keep the index exact', async () => {
    await pad.write('s1', 'doc', 'alpha bravo charlie '.repeat(10));
    expect((await pad.search('s1', 'bravo')).hits.length).toBe(1);
    await pad.write('s1', 'doc', 'delta echo foxtrot '.repeat(10));
    expect((await pad.search('s1', 'bravo')).hits).toEqual([]);
    expect((await pad.search('s1', 'echo')).hits.map((hit) => hit.entry.version)).toEqual([2]);
    assertIndexConsistent();

    await pad.write('s1', 'doc', ' golf hotel', { mode: 'append' });
    expect((await pad.search('s1', 'hotel')).hits.map((hit) => hit.entry.name)).toEqual(['doc']);
    expect((await pad.search('s1', 'foxtrot')).hits.length).toBe(1);
    assertIndexConsistent();
    const liveChunks = count(
      'SELECT count(*) AS count FROM chunks JOIN entries ON entries.content = chunks.content',
    );
    // The rewritten chunks' rows leave in the background.
    await vi.waitFor(() => expect(indexRows()).toBe(liveChunks));
    assertIndexConsistent();

    await pad.delete('s1', 'doc');
    expect((await pad.search('s1', 'hotel')).hits).toEqual([]);
    await vi.waitFor(() => expect(indexRows()).toBe(0));
    expect(count('SELECT count(*) AS count FROM search_unindex')).toBe(0);
    assertIndexConsistent();
  });

  it('deleting a session removes its index rows', async () => {
    await pad.write('s1', 'a', 'kilo lima mike');
    await pad.write('s2', 'b', 'kilo november');
    await pad.search('s1', 'kilo');
    await pad.search('s2', 'kilo');
    await pad.deleteSession('s1');
    expect((await pad.search('s1', 'kilo')).hits).toEqual([]);
    expect((await pad.search('s2', 'kilo')).hits.map((hit) => hit.entry.name)).toEqual(['b']);
    assertIndexConsistent();
  });

  it('binary entries are never indexed', async () => {
    await pad.write('s1', 'blob', Uint8Array.from([0xff, 0xfe, 0x00, 0x41, 0x42]));
    await pad.write('s1', 'text', 'searchable words');
    await pad.search('s1', 'searchable');
    const binaryIndexed = count(
      "SELECT count(*) AS count FROM chunks JOIN entries ON entries.content = chunks.content WHERE kind = 'binary' AND indexed = 1",
    );
    expect(binaryIndexed).toBe(0);
  });

  it('queries with FTS syntax or no words never fail', async () => {
    await pad.write('s1', 'doc', 'title: "quoted" text with NEAR and AND');
    for (const query of [
      '"unbalanced',
      'title:quoted',
      'NEAR(a b)',
      'a AND',
      '*',
      '(((',
      '-x',
      '^start',
      'x OR OR y',
    ]) {
      await expect(pad.search('s1', query)).resolves.toHaveProperty('hits');
    }
    expect((await pad.search('s1', 'title: "quoted')).hits.map((hit) => hit.entry.name)).toEqual(['doc']);
    expect((await pad.search('s1', '!!! ???')).hits).toEqual([]);
  });
});

describe('SQLite un-indexing queue', () => {
  it('a change that rolled back after queuing un-indexing starts no un-indexing loop', async () => {
    const directory = join(root, `case-${++counter}`);
    mkdirSync(directory);
    const raw = openRawConnection(join(directory, 'store.db'));
    // The connection as the driver sees it, counting its looks at the queue (the loop's first read per step).
    let queueLooks = 0;
    const database = {
      name: raw.name,
      prepare: (source: string) => {
        const statement = raw.prepare(source);
        if (source !== 'SELECT 1 FROM search_unindex LIMIT 1') return statement;
        return {
          run: (...parameters: unknown[]) => statement.run(...parameters),
          get: (...parameters: unknown[]) => {
            queueLooks += 1;
            return statement.get(...parameters);
          },
          all: (...parameters: unknown[]) => statement.all(...parameters),
        };
      },
      exec: (source: string) => raw.exec(source),
      function: raw.function.bind(raw),
      close: () => raw.close(),
    };
    const driver = createSqliteDriver({ database });
    const pad = createScratchpad({ driver });
    await pad.write('s1', 'doc', 'alpha bravo');
    expect((await pad.search('s1', 'bravo')).hits.length).toBe(1);
    // The delete queues the entry's index rows, then fails: its transaction rolls back, nothing is queued.
    raw.exec(
      "CREATE TRIGGER refuse_delete BEFORE DELETE ON entries BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    await expect(pad.delete('s1', 'doc')).rejects.toThrow(/refused/);
    raw.exec('DROP TRIGGER refuse_delete');
    expect(raw.prepare('SELECT count(*) AS count FROM search_unindex').get()).toEqual({ count: 0 });
    const looksBefore = queueLooks;
    await pad.write('s1', 'other', 'charlie');
    // A loop started by that write would look at the queue after a turn of the event loop.
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    await driver.close();
    expect(queueLooks - looksBefore).toBe(0);
    raw.close();
  });
});

describe('SQLite gc and the un-indexing queue', () => {
  it('gc reports content queued for un-indexing: kept for readers first, then until its index rows left', async () => {
    const directory = join(root, `case-${++counter}`);
    mkdirSync(directory);
    const database = openRawConnection(join(directory, 'store.db'));
    let clock = Date.UTC(2026, 0, 1);
    const driver = createSqliteDriver({ database, now: () => clock });
    const pad = createScratchpad({ driver, now: () => clock });
    const body = 'alpha bravo charlie';
    await pad.write('s1', 'doc', body);
    expect((await pad.search('s1', 'bravo')).hits.length).toBe(1);
    const { contentId } = database
      .prepare("SELECT content AS contentId FROM entries WHERE name = 'doc'")
      .get() as {
      contentId: number;
    };
    await pad.delete('s1', 'doc');
    await vi.waitFor(() =>
      expect(database.prepare('SELECT count(*) AS count FROM search_unindex').get()).toEqual({ count: 0 }),
    );
    // As a process killed while un-indexing leaves it (nothing of this driver works the queue off until a change).
    database.prepare("INSERT INTO search_unindex (content, name) VALUES (?, 'doc')").run(contentId);
    const bytes = Buffer.byteLength(body);

    expect(await pad.gc()).toMatchObject({
      released: { contents: 0, bytes: 0 },
      held: { contents: 1, bytes, until: clock + RETIRED_CONTENT_RETENTION_MS },
      unindexing: { contents: 0, bytes: 0 },
    });
    clock += RETIRED_CONTENT_RETENTION_MS;
    const past = await pad.gc();
    expect(past).toMatchObject({
      released: { contents: 0, bytes: 0 },
      held: { contents: 0, bytes: 0, until: null },
      unindexing: { contents: 1, bytes },
    });
    expect(describeGc(past).at(-1)).toBe(
      `freed later: 1 content of replaced or deleted entries (${bytes} B), waiting for their search index rows to be removed; a gc after that frees it`,
    );
    await driver.close();
    database.close();
  });
});
