import type { ChunkInPostgres } from '../driver.js';
import { createPgPool } from './load-pg.js';
import type { PostgresPool } from './postgres-pool.js';
import { quoteSchema } from './postgres-schema.js';

/**
 * Fetches the bytes of {@link ChunkInPostgres} sources on connections of the calling thread (grep's worker), so
 * the rows' transfer and the decoding of their bytes never run on the main thread's event loop. One connection
 * per server (connection string) and thread, opened at the first fetch and kept for the next scans.
 */
export class PostgresChunkFetcher {
  readonly #pools = new Map<string, Promise<PostgresPool>>();
  /** Fetches started ahead (see {@link prefetch}) and not taken yet, by `dataId`: the last two prefetches'. */
  readonly #ahead = new Map<string, Promise<Map<string, Uint8Array>>>();
  /** The `dataId`s of the last prefetch and of the one before it. */
  #latest: string[] = [];
  #older: string[] = [];

  /**
   * Starts fetching the bytes of `sources` now, for a later {@link fetch} of the same sources. What the prefetch
   * before the last one started and no fetch took (a scan that stopped early) is dropped.
   */
  prefetch(sources: readonly ChunkInPostgres[]): void {
    if (sources.length === 0) return;
    const fetched = this.#query(sources);
    // Awaited (and its failure seen) by the fetch that takes it; this only keeps it from being unhandled.
    fetched.catch(() => {});
    for (const id of this.#older) this.#ahead.delete(id);
    this.#older = this.#latest;
    this.#latest = sources.map((source) => source.postgres.dataId);
    for (const id of this.#latest) this.#ahead.set(id, fetched);
  }

  /**
   * The bytes of each of `sources`, by `dataId` (a row not found is absent). Rejects when the server cannot be
   * reached or the query fails: the caller then reads through the store, which reports why.
   */
  async fetch(sources: readonly ChunkInPostgres[]): Promise<Map<string, Uint8Array>> {
    const found = new Map<string, Uint8Array>();
    const missing: ChunkInPostgres[] = [];
    const started = new Set<Promise<Map<string, Uint8Array>>>();
    for (const source of sources) {
      const ahead = this.#ahead.get(source.postgres.dataId);
      this.#ahead.delete(source.postgres.dataId);
      if (ahead) started.add(ahead);
      else missing.push(source);
    }
    const parts = await Promise.all([...started, ...(missing.length > 0 ? [this.#query(missing)] : [])]);
    for (const part of parts) for (const [id, data] of part) found.set(id, data);
    return found;
  }

  /** One query per schema and server for `sources`. */
  async #query(sources: readonly ChunkInPostgres[]): Promise<Map<string, Uint8Array>> {
    const groups = new Map<string, { target: ChunkInPostgres['postgres']; ids: string[] }>();
    for (const { postgres } of sources) {
      const key = `${postgres.connectionString ?? ''}\n${postgres.schema}`;
      const group = groups.get(key) ?? { target: postgres, ids: [] };
      group.ids.push(postgres.dataId);
      groups.set(key, group);
    }
    const found = new Map<string, Uint8Array>();
    for (const { target, ids } of groups.values()) {
      const pool = await this.#pool(target.connectionString);
      const result = await pool.query(
        `SELECT id, data FROM ${quoteSchema(target.schema)}.chunk_data WHERE id = ANY($1::bigint[])`,
        [ids],
      );
      for (const row of result.rows) {
        if (row.data instanceof Uint8Array) found.set(String(row.id), row.data);
      }
    }
    return found;
  }

  /** Ends this thread's connections (a worker thread's end closes them too). */
  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    this.#ahead.clear();
    this.#latest = [];
    this.#older = [];
    await Promise.all(pools.map(async (pool) => (await pool.catch(() => undefined))?.end()));
  }

  #pool(connectionString: string | undefined): Promise<PostgresPool> {
    const key = connectionString ?? '';
    let pool = this.#pools.get(key);
    if (!pool) {
      pool = createPgPool({ ...(connectionString === undefined ? {} : { connectionString }), max: 1 });
      // A pool that could not be made is not kept: the next fetch tries again.
      pool.catch(() => this.#pools.delete(key));
      this.#pools.set(key, pool);
    }
    return pool;
  }
}
