import type { Chunk } from '../../core/chunk.js';
import type { EntryRecord } from '../../core/entry.js';
import type { PostgresQueryable } from './postgres-pool.js';
import { ENTRY_COLUMNS, entryValues, toEntryRecord } from './postgres-records.js';
import { bufferOf } from './postgres-staging.js';

/**
 * A small write in one round trip: the server-side function `write_entry` does in one statement what a commit
 * of a content with no staging row did in five (`BEGIN`, session upsert, entry `SELECT … FOR UPDATE`, entry
 * write with its chunks, `COMMIT`), in the same order and with the same locks: it locks the session row
 * (`FOR NO KEY UPDATE`, the lock the upsert's update took; creating the row when the session is new), which
 * serializes the session's commits, then locks the entry row (a fresh snapshot: a volatile function takes one per
 * statement, so it sees an entry committed while it waited for the session), checks the version, inserts the
 * chunks and their bytes, retires the superseded content, inserts or updates the entry and sets the session's
 * time. Called in autocommit, it is one durable commit. A lost compare-and-set returns before anything is
 * written (a session the function would have created has no entry, so only a blind create creates one), with
 * the entry it found, and leaves no error in the server's log. Should an entry appear after the lookup all the
 * same (a writer that did not lock the session), the insert's `ON CONFLICT` finds it and the function raises
 * {@link CAS_LOST} with that entry as JSON in the error's detail, so the statement rolls back.
 *
 * It must run under READ COMMITTED (row locks, not serialization failures, decide races): under another
 * isolation it raises {@link NEEDS_READ_COMMITTED} before touching anything, and the driver runs it again in an
 * explicit READ COMMITTED transaction.
 */

/** SQLSTATE of a lost compare-and-set in `write_entry`. */
const CAS_LOST = 'SPCAS';
/** SQLSTATE `write_entry` raises when the transaction is not READ COMMITTED. */
export const NEEDS_READ_COMMITTED = 'SPRC1';

/**
 * The function as migration `release` creates it: 4 the first, 5 with `expected_id` (the id the entry found must
 * have, or NULL; a name deleted and created again starts over at version 1), an overload beside release 4, which
 * processes of the previous release still call. Released: never change what a release produces; change the
 * function with a new release and migration. `s` is the quoted schema.
 */
export function writeEntryFunction(s: string, release: 4 | 5): string {
  const expectedId = release === 5 ? ' expected_id text,' : '';
  const idMismatch = release === 5 ? ` OR (expected_id IS NOT NULL AND previous->>'id' <> expected_id)` : '';
  return `CREATE FUNCTION ${s}.write_entry(
      expected bigint,${expectedId} now_at bigint,
      e_session text, e_name text, e_id text, e_turn text, e_step bigint, e_source text, e_kind text,
      e_media_type text, e_bytes bigint, e_chars bigint, e_lines bigint, e_sha256 text, e_created_at bigint,
      e_updated_at bigint, e_expires_at bigint, e_pinned boolean, e_evictable boolean, e_version bigint,
      e_metadata json, e_content_id text, e_chunk_count integer,
      c_data bytea[], c_seq integer[], c_byte_start bigint[], c_char_start bigint[], c_line_start bigint[],
      c_bytes integer[], c_chars integer[], c_newlines integer[]
    ) RETURNS json LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      -- The entry found (as JSON: what the caller gets back), its version, content and place.
      previous json;
      previous_version bigint;
      previous_content text;
      previous_at tid;
      new_session boolean := false;
      new_data_id bigint;
    BEGIN
      IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'write_entry runs under READ COMMITTED only' USING ERRCODE = '${NEEDS_READ_COMMITTED}';
      END IF;
      LOOP
        PERFORM 1 FROM ${s}.sessions WHERE id = e_session FOR NO KEY UPDATE;
        EXIT WHEN FOUND;
        -- No session, so no entry: only a blind create can win.
        IF expected IS NOT NULL THEN
          RETURN json_build_object('ok', false, 'entry', NULL);
        END IF;
        INSERT INTO ${s}.sessions (id, created_at, updated_at) VALUES (e_session, now_at, now_at)
          ON CONFLICT (id) DO NOTHING;
        new_session := FOUND;
        EXIT WHEN new_session;
        -- Another writer created it meanwhile: lock it (again, should it be deleted in between).
      END LOOP;
      -- Planned at each call (EXECUTE): a plan PL/pgSQL caches is generic, and one made while the table was
      -- small (a new store, before its first ANALYZE) may search entries_session_turn for the name, scanning the
      -- whole session. The update then finds the locked row by its place.
      EXECUTE 'SELECT to_json(e), e.version, e.content_id, e.ctid FROM ${s}.entries e
               WHERE e.session = $1 AND e.name = $2 FOR UPDATE'
        INTO previous, previous_version, previous_content, previous_at USING e_session, e_name;
      IF previous_version IS DISTINCT FROM expected${idMismatch} THEN
        RETURN json_build_object('ok', false, 'entry', previous);
      END IF;
      FOR i IN 1 .. coalesce(cardinality(c_data), 0) LOOP
        INSERT INTO ${s}.chunk_data (data) VALUES (c_data[i]) RETURNING id INTO new_data_id;
        INSERT INTO ${s}.chunks (content_id, seq, byte_start, char_start, line_start, bytes, chars, newlines, data_id)
          VALUES (e_content_id, c_seq[i], c_byte_start[i], c_char_start[i], c_line_start[i], c_bytes[i], c_chars[i],
            c_newlines[i], new_data_id);
      END LOOP;
      IF NOT new_session THEN
        UPDATE ${s}.sessions SET updated_at = now_at WHERE id = e_session;
      END IF;
      IF previous IS NOT NULL THEN
        IF previous_content <> e_content_id THEN
          INSERT INTO ${s}.retired (content_id, retired_at) VALUES (previous_content, now_at);
        END IF;
        UPDATE ${s}.entries SET (session, name, id, turn, step, source, kind, media_type, bytes, chars, lines, sha256,
            created_at, updated_at, expires_at, pinned, evictable, version, metadata, content_id, chunk_count)
          = ROW(e_session, e_name, e_id, e_turn, e_step, e_source, e_kind, e_media_type, e_bytes, e_chars, e_lines,
            e_sha256, e_created_at, e_updated_at, e_expires_at, e_pinned, e_evictable, e_version, e_metadata,
            e_content_id, e_chunk_count)
          WHERE ctid = previous_at;
        RETURN json_build_object('ok', true, 'entry', previous);
      END IF;
      INSERT INTO ${s}.entries (session, name, id, turn, step, source, kind, media_type, bytes, chars, lines, sha256,
          created_at, updated_at, expires_at, pinned, evictable, version, metadata, content_id, chunk_count)
        VALUES (e_session, e_name, e_id, e_turn, e_step, e_source, e_kind, e_media_type, e_bytes, e_chars, e_lines,
          e_sha256, e_created_at, e_updated_at, e_expires_at, e_pinned, e_evictable, e_version, e_metadata,
          e_content_id, e_chunk_count)
        ON CONFLICT (session, name) DO NOTHING;
      IF NOT FOUND THEN
        EXECUTE 'SELECT to_json(e) FROM ${s}.entries e WHERE e.session = $1 AND e.name = $2'
          INTO previous USING e_session, e_name;
        RAISE EXCEPTION 'compare-and-set lost' USING ERRCODE = '${CAS_LOST}', DETAIL = coalesce(previous::text, '');
      END IF;
      RETURN json_build_object('ok', true, 'entry', NULL);
    END
    $fn$`;
}

/** What a `write_entry` call ended with: written (with the row it replaced), or a lost compare-and-set. */
export type WriteEntryOutcome =
  | { ok: true; previous: EntryRecord | undefined }
  | { ok: false; current: EntryRecord | undefined };

/**
 * Writes `record` with `chunks` (its whole content) if the entry's version is `expectedVersion` (`null`: no
 * entry) and, when `expectedId` is given, its id is that one, in one statement on `db`: in autocommit (a pool) it is its own durable transaction. Rethrows anything
 * but a lost compare-and-set, {@link NEEDS_READ_COMMITTED} included.
 */
export async function writeEntry(
  db: PostgresQueryable,
  s: string,
  record: EntryRecord,
  expected: { version: number | null; id: string | undefined },
  now: number,
  chunks: readonly Chunk[],
): Promise<WriteEntryOutcome> {
  const values: unknown[] = [expected.version, expected.id ?? null, now, ...entryValues(record)];
  const param = (value: unknown) => `$${values.push(value)}`;
  const head = values.map((_, index) => `$${index + 1}`).join(', ');
  // Each chunk's bytes are a parameter of their own (sent as binary); typed, or ARRAY[] would make them text.
  const data =
    chunks.length === 0
      ? `'{}'::bytea[]`
      : `ARRAY[${chunks.map((chunk) => `${param(bufferOf(chunk.data))}::bytea`).join(', ')}]`;
  const columns = [
    chunks.map((chunk) => chunk.seq),
    chunks.map((chunk) => chunk.byteStart),
    chunks.map((chunk) => chunk.charStart),
    chunks.map((chunk) => chunk.lineStart),
    chunks.map((chunk) => chunk.bytes),
    chunks.map((chunk) => chunk.chars),
    chunks.map((chunk) => chunk.newlines),
  ].map(param);
  try {
    const result = await db.query(
      `SELECT ${s}.write_entry(${head}, ${data}, ${columns.join(', ')}) AS outcome`,
      values,
    );
    const answer = result.rows[0]?.outcome;
    const outcome = (typeof answer === 'string' ? JSON.parse(answer) : answer) as
      | { ok?: unknown; entry?: unknown }
      | undefined;
    if (typeof outcome?.ok !== 'boolean') throw new Error('write_entry answered no outcome.');
    const entry = entryFromJson(outcome.entry);
    return outcome.ok ? { ok: true, previous: entry } : { ok: false, current: entry };
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== CAS_LOST) throw error;
    const detail = (error as { detail?: unknown }).detail;
    return { ok: false, current: entryFromJson(typeof detail === 'string' && detail !== '' ? detail : null) };
  }
}

/** An entry row as `row_to_json` gives it (parsed by `pg`, or still text from a pool that does not parse json). */
function entryFromJson(value: unknown): EntryRecord | undefined {
  if (value === null || value === undefined) return undefined;
  const row = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
  for (const column of ENTRY_COLUMNS)
    if (!(column in row)) throw new Error(`write_entry returned no ${column}.`);
  return toEntryRecord(row);
}
