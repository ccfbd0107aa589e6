import type { ChunkInPostgres } from '../driver.js';
import { copyChunkRows } from './copy-chunk-rows.js';
import { createPgPool } from './load-pg.js';
import type { PostgresPool } from './postgres-pool.js';
import { quoteSchema } from './postgres-schema.js';

/**
 * Fetches the bytes of {@link ChunkInPostgres} sources on connections of the calling thread (grep's worker), so
 * the rows' transfer and the decoding of their bytes never run on the main thread's event loop. One connection
 * per server (connection string) and thread, opened at the first fetch and kept for the next scans.
 *
 * The rows come through `COPY (SELECT id, data …) TO STDOUT (FORMAT binary)`: the bytes as stored, where a
 * `SELECT` through `pg` has the server hex-encode them and this thread decode the hex (decision 010).
 */
export class PostgresChunkFetcher {
  readonly #pools = new Map<string, Promise<PostgresPool>>();
  /** Fetches started ahead (see {@link prefetch}) and not taken yet, by `dataId`: the last two prefetches'. */
  readonly #ahead = new Map<string, Promise<Map<string, Uint8Array>>>();
  /** The last prefetch and the one before it: their `dataId`s and their fetch. */
  #latest: Prefetch | undefined;
  #older: Prefetch | undefined;

  /**
   * Starts fetching the bytes of `sources` now, for a later {@link fetch} of the same sources. What the prefetch
   * before the last one started and no fetch took (a scan that stopped early) is dropped, unless a later
   * prefetch asked for the same rows again (a new scan of the same entry): that one is kept.
   */
  prefetch(sources: readonly ChunkInPostgres[]): void {
    if (sources.length === 0) return;
    const fetched = this.#query(sources);
    // Awaited (and its failure seen) by the fetch that takes it; this only keeps it from being unhandled.
    fetched.catch(() => {});
    if (this.#older) {
      for (const id of this.#older.ids) {
        if (this.#ahead.get(id) === this.#older.fetched) this.#ahead.delete(id);
      }
    }
    this.#older = this.#latest;
    this.#latest = { ids: sources.map((source) => source.postgres.dataId), fetched };
    for (const id of this.#latest.ids) this.#ahead.set(id, fetched);
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

  /** One binary `COPY` per schema and server for `sources`. */
  async #query(sources: readonly ChunkInPostgres[]): Promise<Map<string, Uint8Array>> {
    const groups = new Map<string, { target: ChunkInPostgres['postgres']; ids: string[]; sizes: number[] }>();
    for (const { postgres, storedBytes } of sources) {
      const key = `${postgres.connectionString ?? ''}\n${postgres.queryTimeoutMs ?? ''}\n${postgres.schema}`;
      const group = groups.get(key) ?? { target: postgres, ids: [], sizes: [] };
      group.ids.push(postgres.dataId);
      group.sizes.push(storedBytes);
      groups.set(key, group);
    }
    const found = new Map<string, Uint8Array>();
    // The rows of one batch (consecutive chunks, in order) arrive back to back in one buffer: one region to search.
    for (const { target, ids, sizes } of groups.values()) {
      const rows = await copyChunkRows(await this.#pool(target), quoteSchema(target.schema), ids, sizes);
      for (const [id, data] of rows) found.set(id, data);
    }
    return found;
  }

  /** Ends this thread's connections (a worker thread's end closes them too). */
  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    this.#ahead.clear();
    this.#latest = undefined;
    this.#older = undefined;
    await Promise.all(pools.map(async (pool) => (await pool.catch(() => undefined))?.end()));
  }

  #pool({ connectionString, queryTimeoutMs }: ChunkInPostgres['postgres']): Promise<PostgresPool> {
    const key = `${connectionString ?? ''}\n${queryTimeoutMs ?? ''}`;
    let pool = this.#pools.get(key);
    if (!pool) {
      pool = createPgPool({
        ...(connectionString === undefined ? {} : { connectionString }),
        ...(queryTimeoutMs === undefined ? {} : { queryTimeoutMs }),
        max: 1,
      });
      // A pool that could not be made is not kept: the next fetch tries again.
      pool.catch(() => this.#pools.delete(key));
      this.#pools.set(key, pool);
    }
    return pool;
  }
}

/** A prefetch: the rows it asked for and their fetch. */
interface Prefetch {
  ids: string[];
  fetched: Promise<Map<string, Uint8Array>>;
}
