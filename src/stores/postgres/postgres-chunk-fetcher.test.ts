import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireTestServer } from '../../../test/support/require-postgres.js';
import type { ChunkInPostgres } from '../driver.js';
import { PostgresChunkFetcher } from './postgres-chunk-fetcher.js';
import { createPostgresDriver } from './postgres-driver.js';

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 2 });
const schemas: string[] = [];
const fetchers: PostgresChunkFetcher[] = [];

beforeAll(() => requireTestServer(admin, url));
afterEach(async () => {
  for (const fetcher of fetchers.splice(0)) await fetcher.close();
  for (const schema of schemas.splice(0)) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
});
afterAll(async () => {
  await admin.end();
});

/** A fresh schema with the store's tables, holding `rows` in `chunk_data`; their sources, in order. */
async function storedRows(rows: readonly Uint8Array[]): Promise<ChunkInPostgres[]> {
  const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  await (await createPostgresDriver({ connectionString: url, schema })).close();
  const sources: ChunkInPostgres[] = [];
  for (const data of rows) {
    const inserted = await admin.query(`INSERT INTO "${schema}".chunk_data (data) VALUES ($1) RETURNING id`, [
      Buffer.from(data),
    ]);
    sources.push(source(schema, String(inserted.rows[0].id), data.byteLength));
  }
  return sources;
}

function source(schema: string, dataId: string, bytes: number, connectionString = url): ChunkInPostgres {
  return {
    seq: 0,
    byteStart: 0,
    charStart: 0,
    lineStart: 0,
    bytes,
    chars: bytes,
    newlines: 0,
    codec: 0,
    storedBytes: bytes,
    postgres: { connectionString, schema, dataId },
  };
}

function newFetcher(): PostgresChunkFetcher {
  const fetcher = new PostgresChunkFetcher();
  fetchers.push(fetcher);
  return fetcher;
}

describe('PostgresChunkFetcher (binary COPY)', () => {
  it('fetches rows byte for byte: empty, NUL and 0xff bytes, and rows of several MiB', async () => {
    const large = randomBytes(6 * 1024 * 1024);
    const rows = [new Uint8Array(0), Uint8Array.of(0, 0xff, 0x5c, 0x78, 0), large, randomBytes(256 * 1024)];
    const sources = await storedRows(rows);
    const fetched = await newFetcher().fetch(sources);
    expect(fetched.size).toBe(rows.length);
    sources.forEach((each, index) => {
      const got = fetched.get(each.postgres.dataId);
      expect(got?.byteLength).toBe(rows[index]?.byteLength);
      expect(Buffer.from(rows[index] as Uint8Array).equals(got as Uint8Array)).toBe(true);
    });
  });

  it('leaves out a row that is gone, and fetches the rest', async () => {
    const sources = await storedRows([Uint8Array.of(1), Uint8Array.of(2), Uint8Array.of(3)]);
    const gone = sources[1] as ChunkInPostgres;
    await admin.query(`DELETE FROM "${gone.postgres.schema}".chunk_data WHERE id = $1`, [
      gone.postgres.dataId,
    ]);
    const fetched = await newFetcher().fetch(sources);
    expect([...fetched.keys()].sort()).toEqual(
      [sources[0]?.postgres.dataId, sources[2]?.postgres.dataId].sort(),
    );
  });

  it('rejects when the schema is gone or the server does not answer, and fetches again afterwards', async () => {
    const sources = await storedRows([Uint8Array.of(9)]);
    const fetcher = newFetcher();
    const missing = source('scratchpad_test_no_such_schema', '1', 1);
    await expect(fetcher.fetch([missing])).rejects.toThrow();
    // The connection a failed COPY used is dropped; the next fetch works on a new one.
    expect((await fetcher.fetch(sources)).get(sources[0]?.postgres.dataId as string)).toEqual(
      Uint8Array.of(9),
    );
    const silent = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      await expect(
        fetcher.fetch([source('s', '1', 1, `postgres://root@127.0.0.1:${port}/test`)]),
      ).rejects.toThrow();
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('takes a prefetch asked for again by a new scan, not dropped by the prefetch after it', async () => {
    const sources = await storedRows([
      Uint8Array.of(1),
      Uint8Array.of(2),
      Uint8Array.of(3),
      Uint8Array.of(4),
    ]);
    const first = sources.slice(0, 2);
    const second = sources.slice(2);
    const fetcher = newFetcher();
    // A scan prefetched `first` and stopped; the next scan of the same entry prefetches `first` again, then the
    // batch after it, before it takes `first`.
    fetcher.prefetch(first);
    fetcher.prefetch(first.map((each) => ({ ...each })));
    fetcher.prefetch(second);
    // One connection answers in order: once `second` is here, both prefetches of `first` have their rows.
    expect((await fetcher.fetch(second)).size).toBe(2);
    // A fetch that queried now (the prefetch dropped) would find the rows gone.
    const schema = first[0]?.postgres.schema as string;
    await admin.query(`DELETE FROM "${schema}".chunk_data WHERE id = ANY($1::bigint[])`, [
      first.map((each) => each.postgres.dataId),
    ]);
    const fetched = await fetcher.fetch(first);
    expect(first.map((each) => fetched.get(each.postgres.dataId))).toEqual([
      Uint8Array.of(1),
      Uint8Array.of(2),
    ]);
  });
});
