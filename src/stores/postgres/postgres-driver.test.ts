import { createHash, randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireTestServer } from '../../../test/support/require-postgres.js';
import type { Chunk } from '../../core/chunk.js';
import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import type { ReadSlice } from '../../core/slice.js';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import { runStoreContract } from '../../testing/store-contract.js';
import { testRecord } from '../../testing/test-record.js';
import type { ChunkInPostgres, CommitResult } from '../driver.js';
import { createMemoryDriver } from '../memory/index.js';
import { PostgresChunkFetcher } from './postgres-chunk-fetcher.js';
import { createPostgresDriver, type PostgresDriver, type PostgresDriverConfig } from './postgres-driver.js';
import { MIGRATIONS, SCHEMA_VERSION } from './postgres-migrations.js';
import type { PostgresPool } from './postgres-pool.js';
import { entryColumns, entryPlaceholders, entryValues } from './postgres-records.js';
import { BUFFERED_CHUNKS } from './postgres-staging-buffer.js';

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 2 });
const schemas: string[] = [];

function freshSchema(): string {
  const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  return schema;
}

beforeAll(() => requireTestServer(admin, url));
afterEach(async () => {
  for (const schema of schemas.splice(0)) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
});
afterAll(async () => {
  await admin.end();
});

runStoreContract({
  name: 'postgres',
  createDriver: ({ now }) => createPostgresDriver({ connectionString: url, schema: freshSchema(), now }),
  reopen: async (driver) => {
    const schema = (driver as PostgresDriver).schema;
    await driver.close();
    return createPostgresDriver({ connectionString: url, schema });
  },
});

/** A store in `schema` at `version`: the migrations up to it, as a release of that version left it. */
async function createStoreAt(schema: string, version: number): Promise<void> {
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.query(
    `CREATE TABLE "${schema}".schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  for (const migration of MIGRATIONS.filter((each) => each.version <= version)) {
    for (const statement of migration.statements(`"${schema}"`)) await admin.query(statement);
    await admin.query(`INSERT INTO "${schema}".schema_migrations (version) VALUES ($1)`, [migration.version]);
  }
}

/** Total rows in each table of `schema`: what a test checks to prove nothing leaked. */
async function rowCounts(schema: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['entries', 'sessions', 'staging', 'retired', 'chunks', 'chunk_data']) {
    const result = await admin.query(`SELECT count(*) AS n FROM "${schema}".${table}`);
    counts[table] = Number(result.rows[0].n);
  }
  return counts;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return ScratchpadError.isInstance(error)
      ? error.code
      : `${(error as Error).name}: ${(error as Error).message}`;
  }
}

describe('postgres driver', () => {
  const open: PostgresDriver[] = [];
  const driverOn = async (
    schema: string,
    config: Partial<PostgresDriverConfig> = {},
  ): Promise<PostgresDriver> => {
    const driver = await createPostgresDriver({ connectionString: url, schema, ...config });
    open.push(driver);
    return driver;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((driver) => driver.close()));
  });

  it('compare-and-set across separate pools loses no update', async () => {
    const schema = freshSchema();
    const drivers = await Promise.all(Array.from({ length: 4 }, () => driverOn(schema, { max: 3 })));
    const pads = drivers.map((driver) => createScratchpad({ driver, chunkSize: 16 }));
    await pads[0]?.write('team', 'counter', '0');
    await pads[0]?.write('team', 'journal', '');
    const increment = async (pad: Scratchpad): Promise<void> => {
      for (;;) {
        const read = await pad.read('team', 'counter');
        const result = await codeOf(
          pad.write('team', 'counter', String(Number(read.content) + 1), { ifVersion: read.entry.version }),
        );
        if (result === 'ok') return;
        expect(result).toBe('VERSION_CONFLICT');
      }
    };
    const appendLine = async (pad: Scratchpad, line: string): Promise<void> => {
      for (;;) {
        const { version } = await pad.get('team', 'journal');
        const result = await codeOf(
          pad.write('team', 'journal', `${line}\n`, { mode: 'append', ifVersion: version }),
        );
        if (result === 'ok') return;
        expect(result).toBe('VERSION_CONFLICT');
      }
    };
    await Promise.all(
      pads.map(async (pad, writer) => {
        for (let round = 0; round < 8; round++) {
          await increment(pad);
          await appendLine(pad, `writer ${writer} round ${round} ✓`);
        }
      }),
    );
    const check = pads[1] as Scratchpad;
    expect((await check.read('team', 'counter')).content).toBe('32');
    expect((await check.get('team', 'counter')).version).toBe(33);
    const journal = await check.read('team', 'journal');
    const lines = journal.content.split('\n').filter((line) => line !== '');
    expect(lines.length).toBe(32);
    expect(new Set(lines).size).toBe(32);
    expect(journal.entry).toMatchObject({ version: 33, lines: 32, sha256: sha256(journal.content) });
    const counts = await rowCounts(schema);
    expect(counts.staging).toBe(0);
    expect(counts.chunks).toBe(counts.chunk_data);
  });

  it('concurrent creators: one wins, the others fail compare-and-set without an exception', async () => {
    const schema = freshSchema();
    const drivers = await Promise.all(Array.from({ length: 5 }, () => driverOn(schema, { max: 2 })));
    const outcomes = await Promise.all(
      drivers.map((driver, index) =>
        createScratchpad({ driver, chunkSize: 16 })
          .write('s1', 'first', `creator ${index} `.repeat(5), { mode: 'create' })
          .then(
            () => 'ok',
            (error: unknown) => (ScratchpadError.isInstance(error) ? error.code : String(error)),
          ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'ok').length).toBe(1);
    expect(
      outcomes.filter((outcome) => outcome !== 'ok').every((outcome) => outcome === 'ENTRY_EXISTS'),
    ).toBe(true);

    // At the driver level: every creator commits blind (expectedVersion null) at the same moment.
    const staged = await Promise.all(
      drivers.map(async (driver, index) => {
        const sink = await driver.doStage('s1');
        await sink.write({
          seq: 0,
          byteStart: 0,
          charStart: 0,
          lineStart: 0,
          bytes: 1,
          chars: 1,
          newlines: 0,
          data: Buffer.from(String(index)),
        });
        return { driver, sink, index };
      }),
    );
    const results = await Promise.all(
      staged.map(({ driver, sink, index }) =>
        driver.doCommit({
          mode: 'replace',
          expectedVersion: null,
          stagingId: sink.stagingId,
          record: testRecord({ session: 's1', name: 'blind', sha256: String(index) }),
        }),
      ),
    );
    const winners = results.filter((result) => result.ok);
    expect(winners.length).toBe(1);
    const winner = winners[0] as Extract<CommitResult, { ok: true }>;
    for (const result of results) if (!result.ok) expect(result.current?.id).toBe(winner.record.id);
    await Promise.all(staged.map(({ sink }) => sink.abort()));

    // A row that appears between the entry lookup and the insert (here: another writer's open transaction)
    // makes the insert wait for it, then fail the compare-and-set instead of raising a unique violation.
    const other = await admin.connect();
    try {
      await other.query('BEGIN');
      const sneaky = {
        ...testRecord({ session: 's1', name: 'racy', sha256: '7' }),
        contentId: 'sneaky-content',
      };
      await other.query(
        `INSERT INTO "${schema}".entries (${entryColumns()}) VALUES (${entryPlaceholders()})`,
        entryValues(sneaky),
      );
      const driver = drivers[1] as PostgresDriver;
      const sink = await driver.doStage('s1');
      const racing = driver.doCommit({
        mode: 'replace',
        expectedVersion: null,
        stagingId: sink.stagingId,
        record: testRecord({ session: 's1', name: 'racy', sha256: '8' }),
      });
      await untilWriteEntryWaits(schema);
      await other.query('COMMIT');
      const raced = await racing;
      expect(raced.ok).toBe(false);
      expect(raced.ok ? undefined : raced.current?.id).toBe(sneaky.id);
      await sink.abort();
    } finally {
      other.release();
    }
    const read = await drivers[0]?.doReadChunks(winner.record, 0, 10);
    expect(read?.map((chunk) => Buffer.from(chunk.data).toString())).toEqual([winner.record.sha256]);
    const counts = await rowCounts(schema);
    expect(counts).toMatchObject({ staging: 0, entries: 3 });
    expect(counts.chunks).toBe(counts.chunk_data);
  });

  it('a small write is one statement: a lost compare-and-set writes nothing, not even the session row', async () => {
    let clock = 1_000;
    // What the writes send: statements through the pool itself, and connections taken for a transaction.
    const real: PostgresPool = new pg.Pool({ connectionString: url, max: 3 });
    const sent: string[] = [];
    const pool: PostgresPool = {
      query: (text, values) => {
        sent.push(text);
        return real.query(text, values);
      },
      connect: () => {
        sent.push('(a connection for a transaction)');
        return real.connect();
      },
      end: () => real.end(),
    };
    const driver = await driverOn(freshSchema(), { now: () => clock, pool });
    const chunk = (text: string) => ({
      seq: 0,
      byteStart: 0,
      charStart: 0,
      lineStart: 0,
      bytes: text.length,
      chars: text.length,
      newlines: 0,
      data: Buffer.from(text),
    });
    const commit = async (name: string, expectedVersion: number | null, text: string, session = 's1') => {
      const sink = await driver.doStage(session);
      await sink.write(chunk(text));
      const result = await driver.doCommit({
        mode: 'replace',
        expectedVersion,
        stagingId: sink.stagingId,
        record: testRecord({ session, name, contentId: sink.stagingId, version: (expectedVersion ?? 0) + 1 }),
      });
      if (!result.ok) await sink.abort();
      return result;
    };
    sent.length = 0;
    const first = await commit('doc', null, 'one');
    expect(first.ok && first.previous).toBe(undefined);
    // One statement, in autocommit: the function call (the purge after a write runs at most once a while).
    expect(sent.filter((text) => !text.includes('DELETE FROM'))).toEqual([
      expect.stringMatching(/write_entry\(/),
    ]);
    clock = 2_000;
    const second = await commit('doc', 1, 'two');
    expect(second.ok && second.previous?.version).toBe(1);
    const sessionTime = async () =>
      (await admin.query(`SELECT id, updated_at FROM "${driver.schema}".sessions ORDER BY id`)).rows;
    expect(await sessionTime()).toEqual([{ id: 's1', updated_at: '2000' }]);

    clock = 3_000;
    const stale = await commit('doc', 1, 'lost');
    expect(stale.ok).toBe(false);
    expect(stale.ok ? undefined : stale.current).toMatchObject({ name: 'doc', version: 2, chunkCount: 1 });
    const missing = await commit('nothing-here', 4, 'lost', 's2');
    expect(missing).toEqual({ ok: false, current: undefined });
    const taken = await commit('doc', null, 'lost');
    expect(taken.ok ? undefined : taken.current?.version).toBe(2);
    // The losers left no session row, no session time, no chunk.
    expect(await sessionTime()).toEqual([{ id: 's1', updated_at: '2000' }]);
    const record = (await driver.doGetEntry('s1', 'doc')) as EntryRecord;
    const read = await driver.doReadChunks(record, 0, 1);
    expect(read.map((one) => Buffer.from(one.data).toString())).toEqual(['two']);
    expect(await rowCounts(driver.schema)).toMatchObject({
      entries: 1,
      chunks: 2,
      chunk_data: 2,
      retired: 1,
    });

    // A creator that waits for the session row while another transaction creates the name finds that entry
    // (the function's entry lookup takes a fresh snapshot after the wait) and loses.
    const other = await admin.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT id FROM "${driver.schema}".sessions WHERE id = 's1' FOR UPDATE`);
      const held = { ...testRecord({ session: 's1', name: 'held' }), contentId: 'held-content' };
      await other.query(
        `INSERT INTO "${driver.schema}".entries (${entryColumns()}) VALUES (${entryPlaceholders()})`,
        entryValues(held),
      );
      const racing = commit('held', null, 'late');
      await untilWriteEntryWaits(driver.schema);
      await other.query('COMMIT');
      const raced = await racing;
      expect(raced.ok ? undefined : raced.current?.id).toBe(held.id);
    } finally {
      other.release();
    }
  });

  it('writes under a stricter default isolation too (an explicit READ COMMITTED transaction)', async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({
      connectionString: url,
      max: 2,
      options: '-c default_transaction_isolation=serializable',
    });
    expect((await pool.query('SHOW transaction_isolation')).rows[0].transaction_isolation).toBe(
      'serializable',
    );
    const driver = await createPostgresDriver({ pool, schema });
    open.push(driver);
    const pad = createScratchpad({ driver });
    await pad.write('s1', 'doc', 'first');
    const written = await pad.write('s1', 'doc', 'second', { ifVersion: 1 });
    expect(written.entry.version).toBe(2);
    expect(await codeOf(pad.write('s1', 'doc', 'stale', { ifVersion: 1 }))).toBe('VERSION_CONFLICT');
    expect(await codeOf(pad.write('s1', 'doc', 'again', { mode: 'create' }))).toBe('ENTRY_EXISTS');
    expect((await pad.read('s1', 'doc')).content).toBe('second');
    expect(await rowCounts(schema)).toMatchObject({ entries: 1, sessions: 1, chunks: 2 });
  });

  it('names the server and says how to configure another when nothing listens', async () => {
    const port = await closedPort();
    const error = await rejection(
      createPostgresDriver({
        connectionString: `postgres://root@127.0.0.1:${port}/test`,
        schema: freshSchema(),
      }),
    );
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('test');
    expect(error.hint).toContain('--store postgres://user@host:port/db');
    expect(error.hint).toContain('SCRATCHPAD_STORE');
    expect(error.details).toMatchObject({ host: '127.0.0.1', port, database: 'test' });
  });

  it('accepts any pool with the structural shape and ends it on close', async () => {
    const schema = freshSchema();
    const real = new pg.Pool({ connectionString: url, max: 2 });
    const typed: PostgresPool = real;
    const seen = { queries: 0, connects: 0, releases: 0, ended: false };
    const pool: PostgresPool = {
      query: (text, values) => {
        seen.queries++;
        return typed.query(text, values);
      },
      connect: async () => {
        seen.connects++;
        const client = await typed.connect();
        return {
          query: (text, values) => client.query(text, values),
          release: (destroy) => {
            seen.releases++;
            client.release(destroy);
          },
        };
      },
      end: async () => {
        seen.ended = true;
        await typed.end();
      },
    };
    const driver = await createPostgresDriver({ pool, schema });
    const pad = createScratchpad({ driver, chunkSize: 32 });
    await pad.write('s1', 'doc', 'through a pool of my own '.repeat(10));
    expect((await pad.read('s1', 'doc', { type: 'range', start: 25, end: 50 })).content).toBe(
      'through a pool of my own ',
    );
    expect(seen.queries).toBeGreaterThan(0);
    expect(seen.connects).toBeGreaterThan(0);
    expect(seen.releases).toBe(seen.connects);
    await driver.close();
    await driver.close();
    expect(seen.ended).toBe(true);
  });

  it('migrates idempotently, also when several processes start at once', async () => {
    const schema = freshSchema();
    const drivers = await Promise.all(Array.from({ length: 6 }, () => driverOn(schema, { max: 1 })));
    const versions = await admin.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(versions.rows.map((row) => row.version)).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1),
    );
    await createScratchpad({ driver: drivers[0] as PostgresDriver }).write(
      's1',
      'kept',
      'survives migrations',
    );
    const again = await driverOn(schema);
    expect((await createScratchpad({ driver: again }).read('s1', 'kept')).content).toBe(
      'survives migrations',
    );
    expect((await admin.query(`SELECT count(*) AS n FROM "${schema}".schema_migrations`)).rows[0].n).toBe(
      String(SCHEMA_VERSION),
    );
    await admin.query(`INSERT INTO "${schema}".schema_migrations (version) VALUES ($1)`, [
      SCHEMA_VERSION + 1,
    ]);
    const tooNew = await rejection(createPostgresDriver({ connectionString: url, schema }));
    expect(tooNew.code).toBe('STORE_UNAVAILABLE');
    expect(tooNew.hint).toContain('Upgrade llm-scratchpad');
  });

  it("keeps the previous release's write_entry beside the new one, for processes of that release still running", async () => {
    const schema = freshSchema();
    const driver = await driverOn(schema);
    const overloads = await admin.query(
      `SELECT pronargs FROM pg_proc WHERE proname = 'write_entry' AND pronamespace = $1::regnamespace ORDER BY 1`,
      [`"${schema}"`],
    );
    expect(overloads.rows.map((row) => row.pronargs)).toEqual([31, 32]);
    // What release 4 sends: a create of a new name (31 arguments, no expected id).
    const columns = Array.from({ length: 7 }, () => '{}');
    const created = await admin.query(
      `SELECT "${schema}".write_entry(NULL, 1, 's1', 'old', 'id-old', NULL, NULL, NULL, 'text', 'text/plain', 0, 0, 0,
         'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 1, 1, NULL, false, false, 1, '{}', 'c-old', 0,
         '{}'::bytea[], $1, $2, $3, $4, $5, $6, $7) AS outcome`,
      columns,
    );
    expect(created.rows[0].outcome).toEqual({ ok: true, entry: null });
    expect(await driver.doGetEntry('s1', 'old')).toMatchObject({ id: 'id-old', version: 1 });
  });

  it('stores chunk bytes with lz4 where the server has it; bytes stored before stay as they were', async () => {
    const schema = freshSchema();
    // A store at version 5 (before lz4), with bytes in it compressed the server's default way.
    await createStoreAt(schema, 5);
    const text = (seed: string) => `${seed} compresses well. `.repeat(20_000);
    await admin.query(`INSERT INTO "${schema}".chunk_data (data) VALUES ($1)`, [Buffer.from(text('old'))]);
    const before = await admin.query(
      `SELECT id, pg_column_compression(data) AS method FROM "${schema}".chunk_data`,
    );
    expect(before.rows[0].method).not.toBeNull();
    const pad = createScratchpad({ driver: await driverOn(schema) });
    await pad.write('s1', 'after', text('new'));
    const lz4 = await admin
      .query('CREATE TEMP TABLE lz4_probe (b bytea COMPRESSION lz4)')
      .then(() => admin.query('DROP TABLE lz4_probe').then(() => true))
      .catch(() => false);
    const methods = await admin.query(
      `SELECT DISTINCT pg_column_compression(d.data) AS method FROM "${schema}".entries e
       JOIN "${schema}".chunks c ON c.content_id = e.content_id JOIN "${schema}".chunk_data d ON d.id = c.data_id`,
    );
    expect(methods.rows).toEqual([{ method: lz4 ? 'lz4' : 'pglz' }]);
    const old = await admin.query(
      `SELECT data, pg_column_compression(data) AS method FROM "${schema}".chunk_data WHERE id = $1`,
      [before.rows[0].id],
    );
    expect(old.rows[0].method).toBe(before.rows[0].method);
    expect(old.rows[0].data.toString()).toBe(text('old'));
    expect((await pad.read('s1', 'after')).content).toBe(text('new'));
    expect((await pad.grep('s1', 'after', { pattern: 'new compresses' })).total).toBe(1);
  });

  it('migrates a store at version 6 to partial axis, turn and search indexes; reads and locates on every axis as before', async () => {
    // Entries written by this code in a schema of their own, their rows copied into a store at version 6.
    const source = freshSchema();
    const writer = createScratchpad({ driver: await driverOn(source), chunkSize: 16 });
    const text = 'é line one\nzweite Zeile ü\n'.repeat(6);
    await writer.write('s1', 'doc', text, { turn: 't1' });
    await writer.write('s1', 'plain', 'no turn, one chunk');
    expect((await writer.search('s1', 'zweite')).hits.map((hit) => hit.entry.name)).toEqual(['doc']);
    const schema = freshSchema();
    await createStoreAt(schema, 6);
    for (const table of ['sessions', 'entries', 'chunk_data', 'chunks'])
      await admin.query(
        `INSERT INTO "${schema}".${table} OVERRIDING SYSTEM VALUE SELECT * FROM "${source}".${table}`,
      );
    const driver = await driverOn(schema);
    const indexes = await admin.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1`, [
      schema,
    ]);
    const definition = new Map(indexes.rows.map((row) => [row.indexname, String(row.indexdef)]));
    for (const name of ['chunks_byte', 'chunks_char', 'chunks_line'])
      expect(definition.get(name)).toMatch(/WHERE \(seq > 0\)$/);
    expect(definition.get('entries_session_turn')).toMatch(/WHERE \(turn IS NOT NULL\)$/);
    expect(definition.get('chunk_data_tsv')).toMatch(/WHERE \(tsv IS NOT NULL\)$/);
    expect(definition.has('entries_updated_at')).toBe(false);

    const record = (await driver.doGetEntry('s1', 'doc')) as EntryRecord;
    const chunks = await driver.doReadChunks(record, 0, record.chunkCount);
    expect(chunks.length).toBeGreaterThan(4);
    const axes = { byte: 'byteStart', char: 'charStart', line: 'lineStart' } as const;
    for (const [axis, start] of Object.entries(axes) as [
      keyof typeof axes,
      (typeof axes)[keyof typeof axes],
    ][]) {
      const last = (chunks.at(-1) as Chunk)[start] + 20;
      for (let position = -1; position <= last; position++) {
        const holding = chunks.findLast((chunk) => chunk[start] <= position)?.seq ?? 0;
        expect([axis, position, await driver.doLocateChunk(record, axis, position)]).toEqual([
          axis,
          position,
          holding,
        ]);
      }
    }
    const migrated = createScratchpad({ driver, chunkSize: 16 });
    const reference = createScratchpad({ driver: createMemoryDriver(), chunkSize: 16 });
    await reference.write('s1', 'doc', text, { turn: 't1' });
    const slices: ReadSlice[] = [
      { type: 'range', start: 7, end: 61 },
      { type: 'lines', start: 3, end: 8 },
      { type: 'offset', offset: 17, limit: 40 },
      { type: 'tail', count: 30 },
    ];
    for (const slice of slices)
      expect((await migrated.read('s1', 'doc', slice)).content).toBe(
        (await reference.read('s1', 'doc', slice)).content,
      );
    expect((await migrated.list('s1', { turn: 't1' })).entries.map((entry) => entry.name)).toEqual(['doc']);
    expect((await migrated.search('s1', 'zweite')).hits.map((hit) => hit.entry.name)).toEqual(['doc']);
    expect((await migrated.grep('s1', 'doc', { pattern: 'Zeile' })).total).toBe(6);
  });

  it('locating a position searches its axis index, a turn its index, a search the GIN (EXPLAIN)', async () => {
    const schema = freshSchema();
    const seen: { text: string; values: unknown[] }[] = [];
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    const recording = Object.assign(pool, {
      query: (text: string, values?: unknown[]) => {
        seen.push({ text, values: values ?? [] });
        return query(text, values);
      },
    });
    const driver = await driverOn(schema, { pool: recording as unknown as PostgresPool });
    const pad = createScratchpad({ driver, chunkSize: 16 });
    await pad.write('s1', 'doc', 'worker line\n'.repeat(20), { turn: 't1' });
    const record = (await driver.doGetEntry('s1', 'doc')) as EntryRecord;
    for (const axis of ['byte', 'char', 'line'] as const) await driver.doLocateChunk(record, axis, 40);
    await pad.list('s1', { turn: 't1', orderBy: 'createdAt' });
    await pad.search('s1', 'worker');
    const plan = async (text: string, values: unknown[]): Promise<string> => {
      const client = await admin.connect();
      try {
        // Few rows: the planner would rather scan; these say which index the statement can search.
        await client.query('BEGIN');
        await client.query('SET LOCAL enable_seqscan = off');
        await client.query('SET LOCAL enable_sort = off');
        const result = await client.query(`EXPLAIN (COSTS OFF) ${text}`, values);
        await client.query('ROLLBACK');
        return result.rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        client.release();
      }
    };
    // The driver locates through locate_chunk, whose statements may not sort: each is its axis index's seek.
    for (const axis of ['byte', 'char', 'line']) {
      expect(seen.some((each) => each.text.includes(`locate_chunk($1::text, '${axis}'`))).toBe(true);
      const column = `${axis}_start`;
      const body = `SELECT seq FROM "${schema}".chunks WHERE content_id = $1 AND ${column} <= 40 AND seq > 0 AND seq < 20
        ORDER BY ${column} DESC, seq DESC LIMIT 1`;
      expect(await plan(body, [record.contentId])).toContain(
        `Index Only Scan Backward using chunks_${axis} on chunks`,
      );
    }
    const config = await admin.query(
      `SELECT p.proconfig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = $1 AND p.proname = 'locate_chunk'`,
      [schema],
    );
    expect(config.rows[0]?.proconfig).toEqual(['enable_sort=off']);
    const turn = seen.find((each) => each.text.includes('turn = $'));
    expect(await plan(turn?.text ?? '', turn?.values ?? [])).toContain(
      'Index Scan using entries_session_turn',
    );
    // The rank query's condition on the chunk bytes, as it asks it.
    expect(
      await plan(`SELECT id FROM "${schema}".chunk_data d WHERE d.tsv @@ plainto_tsquery('simple', $1)`, [
        'worker',
      ]),
    ).toContain('Bitmap Index Scan on chunk_data_tsv');
  });

  it('locates with one seek on the axis index even when the statistics do not know the content is large', async () => {
    const schema = freshSchema();
    const driver = await driverOn(schema);
    // 3,000 chunks, the table never analyzed. Whether a plain query would be planned well here depends on the
    // planner's estimates (after bench:store's writes it read every chunk of a 1 GiB entry through the primary
    // key and sorted them: decision 010); locate_chunk may not sort, so it seeks whatever they say.
    const pad = createScratchpad({ driver, chunkSize: 16 });
    await pad.write('s1', 'big', 'a log line\nmore\n'.repeat(3_000));
    const record = (await driver.doGetEntry('s1', 'big')) as EntryRecord;
    expect(record.chunkCount).toBeGreaterThan(2_900);
    const client = await admin.connect();
    try {
      await client.query('BEGIN');
      const answers: Record<string, number> = {};
      for (const axis of ['byte', 'char', 'line'] as const) {
        const found = await client.query(`SELECT "${schema}".locate_chunk($1, $2, $3, $4) AS seq`, [
          record.contentId,
          axis,
          20_000,
          record.chunkCount,
        ]);
        answers[axis] = Number(found.rows[0]?.seq);
        expect(answers[axis]).toBe(await driver.doLocateChunk(record, axis, 20_000));
      }
      // This transaction's own index scans: one seek of each axis index, none of the primary key.
      const scans = await client.query(
        `SELECT c.relname AS name, pg_stat_get_xact_numscans(c.oid) AS scans,
           pg_stat_get_xact_tuples_returned(c.oid) AS rows
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass`,
        [`"${schema}".chunks`],
      );
      const byName = Object.fromEntries(
        scans.rows.map((row) => [String(row.name), { scans: Number(row.scans), rows: Number(row.rows) }]),
      );
      for (const axis of ['byte', 'char', 'line']) {
        expect(byName[`chunks_${axis}`], axis).toEqual({ scans: 1, rows: 1 });
      }
      expect(byName.chunks_pkey?.scans).toBe(0);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    const error = await rejection(
      createPostgresDriver({ connectionString: url, schema: 'x"; DROP TABLE y; --' }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
  });

  it('refuses a NUL in text fields PostgreSQL cannot store, and keeps NULs in content', async () => {
    const driver = await driverOn(freshSchema());
    const pad = createScratchpad({ driver });
    const error = await rejection(pad.write('s1', 'doc', 'x', { source: 'tool\u0000name' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(await rowCounts(driver.schema)).toMatchObject({ entries: 0, staging: 0 });
    await pad.write('s1', 'doc', 'a\u0000b', { metadata: { note: 'nul \u0000 inside' } });
    expect((await pad.read('s1', 'doc')).content).toBe('a\u0000b');
    expect((await pad.get('s1', 'doc')).metadata).toEqual({ note: 'nul \u0000 inside' });
  });

  it('keeps offsets past 2^31 exact (bigint columns)', async () => {
    const driver = await driverOn(freshSchema());
    const sink = await driver.doStage('s1');
    const gib = 2 ** 30;
    const starts = [0, 3 * gib, 5 * gib];
    for (const [seq, start] of starts.entries()) {
      await sink.write({
        seq,
        byteStart: start,
        charStart: start,
        lineStart: start / 2,
        bytes: 1,
        chars: 1,
        newlines: 0,
        data: Buffer.from('abc'[seq] as string),
      });
    }
    const record = {
      ...testRecord({ session: 's1', name: 'huge', sha256: '0' }),
      bytes: 5 * gib + 1,
      chars: 5 * gib + 1,
      lines: 1,
    };
    const commit = await driver.doCommit({
      mode: 'replace',
      expectedVersion: null,
      stagingId: sink.stagingId,
      record,
    });
    expect(commit.ok).toBe(true);
    const stored = (await driver.doGetEntry('s1', 'huge')) as EntryRecord;
    expect(stored).toMatchObject({ bytes: 5 * gib + 1, chunkCount: 3 });
    expect(await driver.doLocateChunk(stored, 'byte', 4 * gib)).toBe(1);
    expect(await driver.doLocateChunk(stored, 'char', 5 * gib + 1)).toBe(2);
    expect(await driver.doLocateChunk(stored, 'line', 3 * gib)).toBe(2);
    expect((await driver.doReadChunks(stored, 0, 3)).map((chunk) => chunk.byteStart)).toEqual(starts);
  });

  it('sweeps abandoned staging areas and never sweeps committed content', async () => {
    let clock = 1_000_000;
    const schema = freshSchema();
    const driver = await driverOn(schema, { now: () => clock });
    const chunk = {
      seq: 0,
      byteStart: 0,
      charStart: 0,
      lineStart: 0,
      bytes: 4,
      chars: 4,
      newlines: 0,
      data: Buffer.from('data'),
    };
    // A content of a few small chunks stays in its writer's memory until the commit (nothing to sweep); one of
    // BUFFERED_CHUNKS chunks has its staging row and chunks in the database.
    const abandoned = await driver.doStage('s1');
    for (let seq = 0; seq < BUFFERED_CHUNKS; seq++)
      await abandoned.write({ ...chunk, seq, byteStart: 4 * seq });
    expect(await rowCounts(schema)).toMatchObject({ staging: 1, chunks: BUFFERED_CHUNKS });
    const committed = await driver.doStage('s1');
    await committed.write(chunk);
    const record = testRecord({ session: 's1', name: 'kept', sha256: '0' });
    expect(
      (
        await driver.doCommit({
          mode: 'replace',
          expectedVersion: null,
          stagingId: committed.stagingId,
          record,
        })
      ).ok,
    ).toBe(true);
    // An abort after a commit that did go through (say its reply was lost) must not take the content with it.
    await committed.abort();
    // The driver holding the abandoned sink never sweeps it (its writer may be only slow): another one does.
    const sweeper = await driverOn(schema, { now: () => clock });
    clock += 10_000;
    expect((await sweeper.doSweepStaging(60_000)).staging).toBe(0);
    clock += 60_000;
    expect((await driver.doSweepStaging(60_000)).staging).toBe(0);
    expect((await sweeper.doSweepStaging(60_000)).staging).toBe(1);
    // Its writer learns it at its next batch (or its commit, below).
    const writes = Array.from({ length: BUFFERED_CHUNKS }, (_, index) => BUFFERED_CHUNKS + index);
    const lastWrite = writes.pop() as number;
    for (const seq of writes) await abandoned.write({ ...chunk, seq, byteStart: 4 * seq });
    expect(await codeOf(abandoned.write({ ...chunk, seq: lastWrite, byteStart: 4 * lastWrite }))).toContain(
      'no longer exists',
    );
    expect(
      await codeOf(
        driver.doCommit({
          mode: 'replace',
          expectedVersion: 1,
          stagingId: abandoned.stagingId,
          record: { ...record, version: 2 },
        }),
      ),
    ).toContain('no longer exists');
    expect(await rowCounts(schema)).toMatchObject({ staging: 0, chunks: 1, chunk_data: 1, entries: 1 });
    const stored = (await driver.doGetEntry('s1', 'kept')) as EntryRecord;
    expect(Buffer.from((await driver.doReadChunks(stored, 0, 1))[0]?.data ?? []).toString()).toBe('data');
  });

  it('deleting entries and sessions frees every chunk once no reader needs it', async () => {
    const schema = freshSchema();
    const driver = await driverOn(schema, { readGraceMs: 0 });
    const pad = createScratchpad({ driver, chunkSize: 16 });
    await pad.write('s1', 'a', 'x'.repeat(100));
    await pad.write('s1', 'b', 'y'.repeat(50));
    await pad.write('s1', 'b', 'z'.repeat(70));
    await pad.write('s1', 'b', 'more', { mode: 'append' });
    await pad.write('s2', 'c', 'w'.repeat(40));
    await pad.delete('s1', 'a');
    expect(await pad.deleteSession('s1')).toEqual({ entries: 1, bytes: 74 });
    const counts = await rowCounts(schema);
    expect(counts).toMatchObject({
      entries: 1,
      sessions: 1,
      staging: 0,
      retired: 0,
      chunks: 3,
      chunk_data: 3,
    });
  });

  it('a reader that resolved an entry still reads that version during the grace period', async () => {
    let clock = 5_000_000;
    const schema = freshSchema();
    const driver = await driverOn(schema, { now: () => clock, readGraceMs: 10_000 });
    const pad = createScratchpad({ driver, chunkSize: 16 });
    await pad.write('s1', 'doc', 'first version, long enough for chunks');
    const stale = (await driver.doGetEntry('s1', 'doc')) as EntryRecord;
    await pad.write('s1', 'doc', 'second version');
    const old = await driver.doReadChunks(stale, 0, stale.chunkCount);
    expect(Buffer.concat(old.map((chunk) => chunk.data)).toString()).toBe(
      'first version, long enough for chunks',
    );
    await pad.delete('s1', 'doc');
    expect((await rowCounts(schema)).retired).toBe(2);
    clock += 10_001;
    await pad.write('s1', 'other', 'x');
    expect(await driver.doReadChunks(stale, 0, stale.chunkCount)).toEqual([]);
    expect(await rowCounts(schema)).toMatchObject({ retired: 0, chunks: 1, chunk_data: 1 });
  });

  it('names the rows of chunk bytes for another thread, which fetches what doReadChunks reads', async () => {
    const schema = freshSchema();
    const driver = await driverOn(schema, { readGraceMs: 0 });
    const pad = createScratchpad({ driver, chunkSize: 16 });
    await pad.write('s1', 'doc', 'bytes fetched by a thread of their own, \u0000 and é');
    const record = (await driver.doGetEntry('s1', 'doc')) as EntryRecord;
    const sources = await driver.doChunkSources(record, 1, record.chunkCount + 5);
    const chunks = await driver.doReadChunks(record, 1, record.chunkCount);
    expect(
      sources.map((source) => ('data' in source ? 'bytes' : 'postgres' in source ? 'row' : 'other')),
    ).toEqual(chunks.map(() => 'row'));
    const rows = sources.filter((source): source is ChunkInPostgres => 'postgres' in source);
    expect(rows.map(({ postgres: _row, codec: _codec, storedBytes: _stored, ...info }) => info)).toEqual(
      chunks.map(({ data: _data, ...info }) => info),
    );
    const fetcher = new PostgresChunkFetcher();
    fetcher.prefetch(rows.slice(0, 2));
    const fetched = await fetcher.fetch(rows);
    expect(rows.map((row) => Buffer.from(fetched.get(row.postgres.dataId) ?? []).toString())).toEqual(
      chunks.map((chunk) => Buffer.from(chunk.data).toString()),
    );
    // Rows purged after a delete (no read grace here) are absent: the caller then reads through the store.
    await pad.delete('s1', 'doc');
    await pad.write('s1', 'other', 'x');
    expect((await fetcher.fetch(rows)).size).toBe(0);
    await fetcher.close();
  });

  it('with a pool of the caller, gives chunk bytes themselves (another thread could not connect)', async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const driver = await createPostgresDriver({ pool, schema });
    open.push(driver);
    const pad = createScratchpad({ driver, chunkSize: 16 });
    await pad.write('s1', 'doc', 'bytes read on the main thread, as before');
    const record = (await driver.doGetEntry('s1', 'doc')) as EntryRecord;
    expect(await driver.doChunkSources(record, 0, 2)).toEqual(await driver.doReadChunks(record, 0, 2));
  });

  it('writes new content in 64 KiB chunks unless the service says otherwise (a read fetches its chunk whole)', async () => {
    const driver = await driverOn(freshSchema());
    expect(driver.preferredChunkSize).toBe(64 * 1024);
    const pad = createScratchpad({ driver });
    await pad.write('s1', 'log', 'line of a log\n'.repeat(30_000));
    const record = (await driver.doGetEntry('s1', 'log')) as EntryRecord;
    expect(record.chunkCount).toBe(Math.ceil(record.bytes / (64 * 1024)));
    const chunks = await driver.doReadChunks(record, 0, record.chunkCount);
    expect(chunks.slice(0, -1).every((chunk) => chunk.bytes === 64 * 1024)).toBe(true);
    expect((await pad.read('s1', 'log', { type: 'lines', start: 20_000, end: 20_001 })).content).toBe(
      'line of a log\nline of a log\n',
    );
  });

  it('a search whose index is completed during it still says the index was incomplete when it ranked', async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const holder = await admin.connect();
    let afterRanking: (() => Promise<void>) | undefined;
    // The caller's pool runs every statement of the driver: once the ranking has run, the held chunk is indexed.
    const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    const watched = Object.assign(Object.create(pool) as pg.Pool, {
      query: async (text: string, values?: unknown[]) => {
        const result = await query(text, values);
        if (typeof text === 'string' && text.includes('ts_rank_cd') && afterRanking) {
          const step = afterRanking;
          afterRanking = undefined;
          await step();
        }
        return result;
      },
    });
    const driver = await createPostgresDriver({ pool: watched as unknown as PostgresPool, schema });
    open.push(driver);
    const pad = createScratchpad({ driver });
    try {
      await pad.write('s1', 'log', 'the quokka came back');
      await pad.write('s1', 'note', 'a quokka was seen');
      // Another process holds the note's chunk (as while it indexes it): this driver's indexer skips it.
      await holder.query('BEGIN');
      await holder.query(
        `SELECT d.id FROM "${schema}".chunk_data d JOIN "${schema}".chunks c ON c.data_id = d.id
         JOIN "${schema}".entries e ON e.content_id = c.content_id WHERE e.name = 'note' FOR UPDATE OF d`,
      );
      afterRanking = async () => {
        await holder.query(
          `UPDATE "${schema}".chunk_data d SET tsv = "${schema}".chunk_tsvector(d.data) WHERE d.tsv IS NULL`,
        );
        await holder.query('COMMIT');
      };
      const { hits, indexing } = await pad.search('s1', 'quokka');
      expect(afterRanking).toBeUndefined();
      // The ranking saw the note unindexed: its answer must say the index was not whole.
      expect(hits.map((hit) => hit.entry.name)).toEqual(['log']);
      expect(indexing).toBeDefined();
      expect((await pad.search('s1', 'quokka')).hits.map((hit) => hit.entry.name).sort()).toEqual([
        'log',
        'note',
      ]);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
  });

  it('searches chunk text and names, indexing lazily, whatever the query text', async () => {
    const schema = freshSchema();
    const driver = await driverOn(schema);
    // Words are found within a chunk (as with the scan search); 256-byte chunks keep these ones whole.
    const pad = createScratchpad({ driver, chunkSize: 256 });
    await pad.write(
      's1',
      'app.log',
      `boot ok\u0000 then the scheduler/worker crashed: OutOfMemory in deploy_step\n${'noise '.repeat(40)}`,
    );
    await pad.write('s1', 'release-notes', 'Nothing about memory here, only the release.');
    await pad.write('s1', 'blob', Buffer.from([0xff, 0xfe, 0x00, 0x6d, 0x65, 0x6d]));
    const unindexed = await admin.query(`SELECT count(*) AS n FROM "${schema}".chunk_data WHERE tsv IS NULL`);
    expect(Number(unindexed.rows[0].n)).toBeGreaterThan(3);
    const hits = (await pad.search('s1', 'worker crashed')).hits;
    expect(hits.map((hit) => hit.entry.name)).toEqual(['app.log']);
    expect(hits[0]?.snippet).toContain('[worker]');
    expect(hits[0]?.snippet).toContain('[crashed]');
    expect((await pad.search('s1', 'release')).hits.map((hit) => hit.entry.name)).toEqual(['release-notes']);
    expect((await pad.search('s1', 'app')).hits.map((hit) => [hit.entry.name, hit.snippet])).toEqual([
      ['app.log', 'app.log'],
    ]);
    expect((await pad.search('s1', 'deploy_step')).hits.map((hit) => hit.entry.name)).toEqual(['app.log']);
    const still = await admin.query(
      `SELECT count(*) AS n FROM "${schema}".chunk_data d JOIN "${schema}".chunks c ON c.data_id = d.id
       JOIN "${schema}".entries e ON e.content_id = c.content_id WHERE e.kind = 'text' AND d.tsv IS NULL`,
    );
    expect(Number(still.rows[0].n)).toBe(0);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 40 }),
          fc.constantFrom("'", '!', '&|', 'a:*', '<->', '"memory', '\\', '\u0000', 'or and not', '((('),
        ),
        async (query) => {
          const found = await driver.doSearch({ session: 's1', query, limit: 5 });
          expect(Array.isArray(found.hits)).toBe(true);
        },
      ),
      { numRuns: 80 },
    );
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function rejection(promise: Promise<unknown>): Promise<ScratchpadError> {
  try {
    await promise;
  } catch (error) {
    if (ScratchpadError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ScratchpadError, but it succeeded');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Resolves once a `write_entry` call in `schema` waits for a row lock (another transaction holds it). */
async function untilWriteEntryWaits(schema: string): Promise<void> {
  for (;;) {
    const locks = await admin.query(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
      [`%"${schema}".write_entry%`],
    );
    if (Number(locks.rows[0].n) > 0) return;
  }
}
