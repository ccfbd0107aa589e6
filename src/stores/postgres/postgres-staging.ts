import type { Chunk } from '../../core/chunk.js';
import { endOf } from '../driver-helpers.js';
import type { PostgresClient, PostgresPool, PostgresQueryable } from './postgres-pool.js';
import { toChunkInfo } from './postgres-records.js';
import { withTransaction } from './postgres-transaction.js';

/**
 * The chunk-level SQL of the PostgreSQL backend. A content id names a chunk sequence: first a staging area's,
 * then, once committed, an entry's (`entries.content_id`), finally, once superseded, a retired one's.
 * `s` is the quoted schema name.
 */

/**
 * An expression that turns off the WAL flush for the transaction it runs in. Used for staging, sweeping,
 * purging and indexing, which a crash may safely undo: the commit that makes staged chunks part of an entry
 * flushes synchronously, and WAL is flushed in order, so it makes everything staged before it durable too.
 * This saves a disk flush per chunk written.
 */
export const ASYNC_COMMIT = `set_config('synchronous_commit', 'off', true)`;

/** Creates a staging area with its first batch of chunks, in one statement. */
export async function openStaging(
  db: PostgresQueryable,
  s: string,
  stagingId: string,
  session: string,
  now: number,
  chunks: readonly Chunk[],
): Promise<void> {
  const values: unknown[] = [stagingId, session, now];
  const inserts = chunkInserts(s, chunks, values, 'FROM area');
  await db.query(
    `WITH area AS (
       INSERT INTO ${s}.staging (id, session, created_at) VALUES ($1::text, $2::text, $3::bigint) RETURNING id
     )${inserts}
     SELECT ${ASYNC_COMMIT}`,
    values,
  );
}

/**
 * Stores a batch of staged chunks in one statement, provided their staging area still exists. `FOR SHARE` holds
 * off a sweep of the area until the chunks are in, so a sweep never leaves chunks behind. Returns false when the
 * area is gone.
 */
export async function writeStagedChunks(
  db: PostgresQueryable,
  s: string,
  stagingId: string,
  chunks: readonly Chunk[],
): Promise<boolean> {
  const values: unknown[] = [stagingId];
  const inserts = chunkInserts(s, chunks, values, 'FROM area');
  const result = await db.query(
    `WITH area AS (SELECT id FROM ${s}.staging WHERE id = $1 FOR SHARE)${inserts}
     SELECT count(*) AS areas, ${ASYNC_COMMIT} FROM area`,
    values,
  );
  return Number(result.rows[0]?.areas ?? 0) === 1;
}

/** Inside a commit: inserts `chunks` under `contentId` in one statement. */
export async function insertChunks(
  db: PostgresQueryable,
  s: string,
  contentId: string,
  chunks: readonly Chunk[],
): Promise<void> {
  const values: unknown[] = [contentId];
  const inserts = chunkInserts(s, chunks, values, '');
  await db.query(`WITH nothing AS (SELECT 1)${inserts} SELECT count(*) FROM nothing`, values);
}

/**
 * Common table expressions (each starting with a comma) that insert `chunks` under the content id in
 * `contentParam` (`$1` unless given), each chunk's bytes first (`chunk_data`), then its row; `from` restricts them (`FROM area`) or is
 * empty. Appends the chunks' parameters to `values`.
 */
export function chunkInserts(
  s: string,
  chunks: readonly Chunk[],
  values: unknown[],
  from: string,
  contentParam = '$1',
): string {
  return chunks
    .map((chunk, index) => {
      const at = values.length;
      values.push(
        bufferOf(chunk.data),
        chunk.seq,
        chunk.byteStart,
        chunk.charStart,
        chunk.lineStart,
        chunk.bytes,
        chunk.chars,
        chunk.newlines,
      );
      const p = (n: number) => `$${at + n}`;
      return `,
       data_${index} AS (INSERT INTO ${s}.chunk_data (data) SELECT ${p(1)}::bytea ${from} RETURNING id),
       chunk_${index} AS (
         INSERT INTO ${s}.chunks (content_id, seq, byte_start, char_start, line_start, bytes, chars, newlines, data_id)
         SELECT ${contentParam}::text, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, id FROM data_${index}
       )`;
    })
    .join('');
}

/** `data` as a Buffer over the same bytes (what `pg` sends as `bytea`). */
export function bufferOf(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Deletes the staging areas that `condition` (over `staging`, with `values`) selects, then their chunks in a
 * second statement: it sees every chunk a writer stored before the area's row went. Returns how many went.
 */
export function dropStaging(
  pool: PostgresPool,
  s: string,
  condition: string,
  values: unknown[],
): Promise<number> {
  return withTransaction(pool, async (client) => {
    const gone = await client.query(
      `DELETE FROM ${s}.staging WHERE ${condition} RETURNING id, ${ASYNC_COMMIT}`,
      values,
    );
    const ids = gone.rows.map((row) => String(row.id));
    if (ids.length > 0) {
      await client.query(
        `WITH gone AS (DELETE FROM ${s}.chunks WHERE content_id = ANY($1::text[]) RETURNING data_id)
         DELETE FROM ${s}.chunk_data WHERE id IN (SELECT data_id FROM gone)`,
        [ids],
      );
    }
    return ids.length;
  });
}

/**
 * Inside a commit: removes the staging row and counts its chunks. `undefined` when the area is gone (aborted
 * or swept): its chunks are gone or going too, and the commit must fail.
 */
export async function takeStaging(
  db: PostgresClient,
  s: string,
  stagingId: string,
): Promise<number | undefined> {
  const result = await db.query(
    `WITH taken AS (DELETE FROM ${s}.staging WHERE id = $1 RETURNING id)
     SELECT (SELECT count(*) FROM taken) AS taken, (SELECT count(*) FROM ${s}.chunks WHERE content_id = $1) AS chunks`,
    [stagingId],
  );
  const row = result.rows[0];
  return Number(row?.taken ?? 0) === 1 ? Number(row?.chunks ?? 0) : undefined;
}

/**
 * Inside a commit: appends the chunks staged under `stagingId` to `contentId` after its first `keepChunks`
 * chunks. Drops the rest, then re-keys the staged index rows onto the kept chunks' end (what `rebaseChunks`
 * does in memory), leaving their bytes where they are. Returns the new chunk count.
 */
export async function appendStaged(
  db: PostgresClient,
  s: string,
  contentId: string,
  keepChunks: number,
  stagingId: string,
): Promise<number> {
  const last = await db.query(
    `WITH gone AS (DELETE FROM ${s}.chunks WHERE content_id = $1 AND seq >= $2 RETURNING data_id),
       data_gone AS (DELETE FROM ${s}.chunk_data WHERE id IN (SELECT data_id FROM gone))
     SELECT seq, byte_start, char_start, line_start, bytes, chars, newlines FROM ${s}.chunks
     WHERE content_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT 1`,
    [contentId, keepChunks],
  );
  const base = endOf(last.rows.map(toChunkInfo));
  const moved = await db.query(
    `UPDATE ${s}.chunks SET content_id = $1, seq = seq + $2, byte_start = byte_start + $3,
       char_start = char_start + $4, line_start = line_start + $5
     WHERE content_id = $6`,
    [contentId, base.seq, base.byteStart, base.charStart, base.lineStart, stagingId],
  );
  return base.seq + (moved.rowCount ?? 0);
}

/**
 * Deletes content retired at or before `cutoff`, a batch per statement. Rows another purge holds are skipped,
 * so concurrent purges never wait on each other. Returns how many contents were deleted and their size.
 */
export async function purgeRetired(
  db: PostgresQueryable,
  s: string,
  cutoff: number,
): Promise<{ contents: number; bytes: number }> {
  const batch = 64;
  const purged = { contents: 0, bytes: 0 };
  for (;;) {
    const result = await db.query(
      `WITH due AS (
         DELETE FROM ${s}.retired WHERE content_id IN (
           SELECT content_id FROM ${s}.retired WHERE retired_at <= $1 ORDER BY retired_at LIMIT ${batch} FOR UPDATE SKIP LOCKED
         ) RETURNING content_id
       ),
       chunks_gone AS (DELETE FROM ${s}.chunks WHERE content_id IN (SELECT content_id FROM due) RETURNING data_id, bytes),
       data_gone AS (DELETE FROM ${s}.chunk_data WHERE id IN (SELECT data_id FROM chunks_gone))
       SELECT (SELECT count(*) FROM due) AS purged, (SELECT coalesce(sum(bytes), 0) FROM chunks_gone) AS bytes,
         ${ASYNC_COMMIT}`,
      [cutoff],
    );
    const count = Number(result.rows[0]?.purged ?? 0);
    purged.contents += count;
    purged.bytes += Number(result.rows[0]?.bytes ?? 0);
    if (count < batch) return purged;
  }
}

/** Retired contents still kept for readers: how many, their size, and when the latest was retired. */
export async function retiredContents(
  db: PostgresQueryable,
  s: string,
): Promise<{ contents: number; bytes: number; latest: number | null }> {
  const result = await db.query(
    `SELECT count(*) AS contents, max(retired_at) AS latest,
       coalesce((SELECT sum(bytes) FROM ${s}.chunks WHERE content_id IN (SELECT content_id FROM ${s}.retired)), 0) AS bytes
     FROM ${s}.retired`,
  );
  const row = result.rows[0] ?? {};
  return {
    contents: Number(row.contents ?? 0),
    bytes: Number(row.bytes ?? 0),
    latest: row.latest === null || row.latest === undefined ? null : Number(row.latest),
  };
}
