import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireTestServer } from '../../../test/support/require-postgres.js';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createPostgresDriver } from './postgres-driver.js';
import { SCHEMA_VERSION } from './postgres-migrations.js';

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 4 });
const schemas: string[] = [];

/**
 * A schema as release 6 left it, with an entry: made at the current version, then migrations 7 and 8 undone
 * (their index and function as version 6 had them), so opening it runs migration 7, which drops and creates
 * indexes on `chunks` and `entries` and so needs each table to itself for a moment.
 */
async function schemaAtVersion6(): Promise<string> {
  const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  const pad = createScratchpad({ driver: await createPostgresDriver({ connectionString: url, schema }) });
  await pad.write('s1', 'kept', 'written at version 6');
  await pad.close();
  const q = `"${schema}"`;
  await admin.query(`DELETE FROM ${q}.schema_migrations WHERE version >= 7`);
  await admin.query(`CREATE INDEX entries_updated_at ON ${q}.entries (updated_at)`);
  await admin.query(`DROP FUNCTION ${q}.locate_chunk(text, text, bigint, bigint)`);
  return schema;
}

async function version(schema: string): Promise<number> {
  const found = await admin.query(`SELECT max(version) AS version FROM "${schema}".schema_migrations`);
  return Number(found.rows[0].version);
}

/** A client of another release in a long transaction that has read the chunks table (and so holds it shared). */
async function readerHoldingChunks(schema: string): Promise<pg.PoolClient> {
  const reader = await admin.connect();
  await reader.query('BEGIN');
  await reader.query(`SELECT count(*) FROM "${schema}".chunks`);
  return reader;
}

beforeAll(async () => {
  await requireTestServer(admin, url);
});

describe('PostgreSQL migrations and other clients’ locks', () => {
  const held: pg.PoolClient[] = [];

  afterEach(async () => {
    for (const client of held.splice(0)) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  });

  afterAll(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('lets the other clients’ statements through while it waits for a lock, and upgrades once the lock is free', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(8);
    const schema = await schemaAtVersion6();
    held.push(await readerHoldingChunks(schema));
    const opening = createPostgresDriver({ connectionString: url, schema, queryTimeoutMs: 30_000 });
    opening.catch(() => {});
    await sleep(300);

    // A peer of the long transaction reads the same table while the migration waits for it. A migration that
    // waited without a bound would hold the queue: this read would wait for the long transaction too.
    const peer = await admin.connect();
    held.push(peer);
    const peerRead = peer
      .query(
        `SELECT count(*)::integer AS entries FROM "${schema}".entries JOIN "${schema}".chunks USING (content_id)`,
      )
      .then((result) => Number(result.rows[0].entries));
    const first = await Promise.race([peerRead, sleep(5_000).then(() => 'still queued' as const)]);
    expect(first).toBe(1);
    expect(await version(schema)).toBe(6);

    const [reader] = held;
    await reader?.query('ROLLBACK');
    const pad = createScratchpad({ driver: await opening });
    try {
      expect(await version(schema)).toBe(SCHEMA_VERSION);
      expect((await pad.read('s1', 'kept')).content).toBe('written at version 6');
    } finally {
      await pad.close();
    }
  }, 30_000);

  it('leaves the tables free between its attempts, however many processes open the store at once', async () => {
    const schema = await schemaAtVersion6();
    const reader = await readerHoldingChunks(schema);
    held.push(reader);
    const openings = Array.from({ length: 3 }, () =>
      createPostgresDriver({ connectionString: url, schema, queryTimeoutMs: 30_000 }),
    );
    for (const opening of openings) opening.catch(() => {});
    // Sampled for 6 s: how often some migration waits to lock a table of the schema. Processes that took turns
    // at the tables (each waiting its second as soon as the one before rolled back) would wait at every sample.
    let samples = 0;
    let waiting = 0;
    for (const until = Date.now() + 6_000; Date.now() < until; samples++) {
      const found = await admin.query(
        `SELECT count(*)::integer AS waiting FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND NOT l.granted`,
        [schema],
      );
      const now = Number(found.rows[0].waiting);
      expect(now).toBeLessThanOrEqual(1);
      if (now > 0) waiting++;
      await sleep(50);
    }
    expect(samples).toBeGreaterThan(20);
    expect(waiting / samples).toBeLessThan(0.8);
    await reader.query('ROLLBACK');
    const drivers = await Promise.all(openings);
    for (const driver of drivers) await driver.close();
    expect(await version(schema)).toBe(SCHEMA_VERSION);
  }, 30_000);

  it('locks only its own tables: another application’s table in the same schema, held meanwhile, is left alone', async () => {
    const schema = await schemaAtVersion6();
    await admin.query(`CREATE TABLE "${schema}".their_orders (id integer)`);
    const theirs = await admin.connect();
    held.push(theirs);
    await theirs.query('BEGIN');
    await theirs.query(`SELECT count(*) FROM "${schema}".their_orders`);
    const driver = await createPostgresDriver({ connectionString: url, schema, queryTimeoutMs: 2_000 });
    await driver.close();
    expect(await version(schema)).toBe(SCHEMA_VERSION);
  }, 30_000);

  it('gives up after the query timeout with STORE_UNAVAILABLE naming the connection that holds the lock, and changes nothing', async () => {
    const schema = await schemaAtVersion6();
    const reader = await readerHoldingChunks(schema);
    held.push(reader);
    const readerPid = Number((await reader.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);

    const started = Date.now();
    const refused = await createPostgresDriver({ connectionString: url, schema, queryTimeoutMs: 2_500 }).then(
      async (driver) => {
        await driver.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(ScratchpadError.hasCode(refused, 'STORE_UNAVAILABLE')).toBe(true);
    const error = refused as ScratchpadError;
    expect(error.message).toContain(`pid ${readerPid}`);
    expect(error.message).toContain('nothing was changed');
    expect(error.message).toContain(`schema ${schema}`);
    const holders = (error.details as { holders: Array<{ pid: number; state: string }> }).holders;
    expect(holders.map((holder) => holder.pid)).toContain(readerPid);
    expect(holders.find((holder) => holder.pid === readerPid)?.state).toBe('idle in transaction');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);

    expect(await version(schema)).toBe(6);
    const index = await admin.query('SELECT to_regclass($1) IS NOT NULL AS present', [
      `"${schema}".entries_updated_at`,
    ]);
    expect(index.rows[0].present).toBe(true);
  }, 30_000);
});
