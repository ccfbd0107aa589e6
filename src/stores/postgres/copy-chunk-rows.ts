import { BinaryCopyRows } from './binary-copy-rows.js';
import { CopyOutQuery } from './postgres-copy-out.js';
import type { PostgresClient, PostgresPool } from './postgres-pool.js';

/** A client of a `pg.Pool`, which also runs query objects (`PostgresPool` alone does not promise that). */
interface CopyClient {
  query(submittable: CopyOutQuery): unknown;
  release: PostgresClient['release'];
}

const ROW_ID = /^[0-9]{1,19}$/;

/**
 * The `chunk_data` rows `ids` of schema `s` (quoted), by id, through `COPY (SELECT id, data …) TO STDOUT (FORMAT
 * binary)` on a client of `pool`, which must be a `pg.Pool`: the bytes as stored, where a query's rows would bring
 * `bytea` as hex (the server encodes it, the client decodes it: 2 chunks of 256 KiB took 3.6 ms against 1.6 ms).
 * A row that is gone is not in the map. A failed COPY may leave its connection mid-stream: it is not reused.
 */
export async function copyChunkRows(
  pool: PostgresPool,
  s: string,
  ids: readonly string[],
): Promise<Map<string, Uint8Array>> {
  // COPY takes no parameters: the ids go into the statement, so only plain integers (what the driver gives) pass.
  for (const id of ids) {
    if (!ROW_ID.test(id)) throw new Error(`Not a chunk row id: ${JSON.stringify(id)}.`);
  }
  const rows = new BinaryCopyRows();
  const copy = new CopyOutQuery(
    `COPY (SELECT id, data FROM ${s}.chunk_data WHERE id = ANY('{${ids.join(',')}}'::bigint[]))
     TO STDOUT (FORMAT binary)`,
    (bytes) => rows.push(bytes),
  );
  const client = (await pool.connect()) as unknown as CopyClient;
  try {
    client.query(copy);
    await copy.done;
  } catch (error) {
    client.release(true);
    throw error;
  }
  client.release();
  return rows.finish();
}
