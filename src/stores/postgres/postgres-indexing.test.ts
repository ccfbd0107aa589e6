import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTestServer } from '../../../test/support/require-postgres.js';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import { createPostgresDriver } from './postgres-driver.js';
import type { PostgresPool } from './postgres-pool.js';
import { PostgresIndexing } from './postgres-search.js';

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 2 });
/** The driver's pool (it ends it when it closes); the indexing under test shares it. */
const pool = new pg.Pool({ connectionString: url, max: 4 });
const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;
const q = `"${schema}"`;
let pad: Scratchpad;

/** 64-byte chunks of words: `count` chunks. */
function chunksOfText(count: number, word: string): string {
  return Array.from({ length: count }, (_, index) =>
    `${word} ${String(index).padStart(4, '0')} `.padEnd(64, '.'),
  ).join('');
}

/** Which chunks (by seq) of entry `name` have no tsvector yet. */
async function unindexed(session: string, name: string): Promise<number[]> {
  const found = await admin.query(
    `SELECT c.seq FROM ${q}.entries e JOIN ${q}.chunks c ON c.content_id = e.content_id AND c.seq < e.chunk_count
     JOIN ${q}.chunk_data d ON d.id = c.data_id WHERE e.session = $1 AND e.name = $2 AND d.tsv IS NULL ORDER BY c.seq`,
    [session, name],
  );
  return found.rows.map((row) => Number(row.seq));
}

async function forget(session: string, name: string, seq: number): Promise<void> {
  await admin.query(
    `UPDATE ${q}.chunk_data d SET tsv = NULL FROM ${q}.chunks c, ${q}.entries e
     WHERE d.id = c.data_id AND c.content_id = e.content_id AND e.session = $1 AND e.name = $2 AND c.seq = $3`,
    [session, name, seq],
  );
}

beforeAll(async () => {
  await requireTestServer(admin, url);
  pad = createScratchpad({
    driver: await createPostgresDriver({ pool: pool as unknown as PostgresPool, schema }),
    chunkSize: 64,
  });
});
afterAll(async () => {
  await pad.close();
  await admin.query(`DROP SCHEMA IF EXISTS ${q} CASCADE`);
  await admin.end();
});

describe('PostgreSQL indexing in steps', () => {
  it('goes on from where the last step began, and a pass from the start finds what it went past', async () => {
    await pad.write('s1', 'm-big', chunksOfText(200, 'quokka'));
    await pad.write('s2', 'other', chunksOfText(5, 'wombat'));
    const indexing = new PostgresIndexing(pool as unknown as PostgresPool, q);

    const first = await indexing.step('s1');
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(60);
    expect((await unindexed('s1', 'm-big'))[0]).toBe(first);
    const second = await indexing.step('s1');
    expect((await unindexed('s1', 'm-big'))[0]).toBe(first + second);

    // Behind the position now (the second step's first chunk): chunk 0 loses its tsvector, and an entry is written
    // under a name before it.
    await forget('s1', 'm-big', 0);
    await pad.write('s1', 'a-late', chunksOfText(3, 'numbat'));
    const third = await indexing.step('s1');
    expect(third).toBeGreaterThan(0);
    // The third step went on from the second: it did not go back for chunk 0 or the new entry.
    expect((await unindexed('s1', 'm-big'))[0]).toBe(0);
    expect((await unindexed('s1', 'm-big'))[1]).toBe(first + second + third);
    expect(await unindexed('s1', 'a-late')).toEqual([0, 1, 2]);

    let total = first + second + third;
    for (let steps = 0; steps < 200; steps++) {
      const indexed = await indexing.step('s1');
      if (indexed === 0) break;
      total += indexed;
    }
    // Every chunk once: the 200 of m-big, chunk 0 again, the 3 of a-late; the other session untouched.
    expect(total).toBe(200 + 1 + 3);
    expect(await unindexed('s1', 'm-big')).toEqual([]);
    expect(await unindexed('s1', 'a-late')).toEqual([]);
    expect(await unindexed('s2', 'other')).toEqual([0, 1, 2, 3, 4]);
    expect(await indexing.step('s1')).toBe(0);
  });

  it('indexes a chunk another connection held while the steps went past it, once it is free', async () => {
    await pad.write('s3', 'log', chunksOfText(20, 'echidna'));
    const indexing = new PostgresIndexing(pool as unknown as PostgresPool, q);
    const holder = await admin.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        `SELECT d.id FROM ${q}.chunk_data d JOIN ${q}.chunks c ON c.data_id = d.id
         JOIN ${q}.entries e ON e.content_id = c.content_id WHERE e.session = 's3' AND c.seq = 2 FOR UPDATE OF d`,
      );
      while ((await indexing.step('s3')) > 0);
      expect(await unindexed('s3', 'log')).toEqual([2]);
      await holder.query('COMMIT');
      expect(await indexing.step('s3')).toBe(1);
      expect(await unindexed('s3', 'log')).toEqual([]);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
  });
});
