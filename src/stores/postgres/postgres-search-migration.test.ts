import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTestServer } from '../../../test/support/require-postgres.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createPostgresDriver } from './postgres-driver.js';
import { SCHEMA_VERSION } from './postgres-migrations.js';

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 2 });
const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;
const q = `"${schema}"`;

beforeAll(async () => {
  await requireTestServer(admin, url);
});
afterAll(async () => {
  await admin.query(`DROP SCHEMA IF EXISTS ${q} CASCADE`);
  await admin.end();
});

/** Chunks (of the store's tsvectors) that match `query`, a tsquery in the `simple` configuration. */
async function matchingChunks(query: string): Promise<number> {
  const found = await admin.query(
    `SELECT count(*) AS n FROM ${q}.chunk_data WHERE tsv @@ phraseto_tsquery('simple', $1)`,
    [query],
  );
  return Number(found.rows[0].n);
}

describe('PostgreSQL migration 9: a store indexed before is indexed again, over seams and CJK', () => {
  it('finds the words the old tsvectors missed, once its next searches have indexed it again', async () => {
    // 64-byte chunks: `zebracornflakes` is cut by the first boundary.
    const content = `${'the log ends with '.padEnd(56, '.')} zebracornflakes then エラーが発生しました`;
    const first = createScratchpad({
      driver: await createPostgresDriver({ connectionString: url, schema }),
      chunkSize: 64,
    });
    await first.write('s1', 'log', content);
    await first.close();
    // The store as the previous release left it, indexed: its tsvectors from `chunk_tsvector`, and without the
    // functions and the version migration 9 adds.
    await admin.query(`UPDATE ${q}.chunk_data SET tsv = ${q}.chunk_tsvector(data)`);
    await admin.query(
      `DROP FUNCTION ${q}.index_tsvector(text, bytea), ${q}.seam_prefix(text), ${q}.segment_scripts(text)`,
    );
    await admin.query(`DELETE FROM ${q}.schema_migrations WHERE version = 9`);
    expect(await matchingChunks('zebracornflakes')).toBe(0);
    expect(await matchingChunks('エ ラ ー')).toBe(0);

    const pad = createScratchpad({ driver: await createPostgresDriver({ connectionString: url, schema }) });
    try {
      const version = await admin.query(`SELECT max(version) AS v FROM ${q}.schema_migrations`);
      expect(Number(version.rows[0].v)).toBe(SCHEMA_VERSION);
      await pad.finishIndexing('s1');
      for (const query of ['zebracornflakes', 'エラー', '発生', 'ends']) {
        const { hits, indexing } = await pad.search('s1', query);
        expect(indexing).toBeUndefined();
        expect(
          hits.map((hit) => hit.entry.name),
          query,
        ).toEqual(['log']);
      }
      expect((await pad.search('s1', 'エラー')).hits[0]?.snippet).toContain('[エラー]');
      expect((await pad.search('s1', 'zebracornflakes')).hits[0]?.snippet).toContain('[zebracornflakes]');
    } finally {
      await pad.close();
    }
  });
});
