import { ScratchpadError } from '../../core/errors.js';
import { postgresSegmentedClass, SEAM_CHARS, SEGMENT_BREAK } from '../../core/script-segments.js';
import { formatTarget, type PostgresTarget } from './postgres-errors.js';
import {
  describeLockHolders,
  isLostLockWait,
  LockWaitExhausted,
  retryOnLockTimeout,
} from './postgres-lock-wait.js';
import type { PostgresClient, PostgresPool } from './postgres-pool.js';
import { splitJoinedWords, sqlString } from './postgres-schema.js';
import { withTransaction } from './postgres-transaction.js';
import { writeEntryFunction } from './postgres-write-entry.js';

/** Migration 7 makes the search index partial in place only up to this size (64 MiB, a few seconds to build). */
const GIN_REBUILT_UP_TO_BYTES = 64 * 1024 * 1024;

/** One schema change: the statements that take the schema from `version - 1` to `version`. */
export interface Migration {
  version: number;
  statements: (schema: string) => string[];
}

/**
 * The schema, in order. Never edit a released migration: add the next one.
 * Layout: `entries` (one row per entry, unique per session and name), `sessions`, `staging` (content being
 * written), `retired` (content a replace or delete superseded, kept readable for a grace period), `chunks`
 * (offsets of each chunk on the three axes) and `chunk_data` (the bytes and, once searched, their tsvector).
 * Chunk bytes sit apart from the index rows so that an append re-keys small rows and never rewrites blobs; the
 * tsvector is computed in the background once a search of the session asked for it, so writes pay nothing for
 * search. Offsets and sizes are `bigint`: entries can pass 2 GB.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    statements: (s) => [
      `CREATE TABLE ${s}.sessions (
        id text COLLATE "C" PRIMARY KEY,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL
      )`,
      `CREATE TABLE ${s}.entries (
        session text COLLATE "C" NOT NULL,
        name text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL UNIQUE,
        turn text,
        step bigint,
        source text,
        kind text NOT NULL CHECK (kind IN ('text', 'binary')),
        media_type text NOT NULL,
        bytes bigint NOT NULL,
        chars bigint NOT NULL,
        lines bigint NOT NULL,
        sha256 text NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        expires_at bigint,
        pinned boolean NOT NULL,
        version bigint NOT NULL,
        metadata json NOT NULL,
        content_id text COLLATE "C" NOT NULL UNIQUE,
        chunk_count integer NOT NULL,
        PRIMARY KEY (session, name)
      )`,
      `CREATE INDEX entries_expires_at ON ${s}.entries (expires_at) WHERE expires_at IS NOT NULL`,
      `CREATE INDEX entries_session_turn ON ${s}.entries (session, turn)`,
      `CREATE INDEX entries_updated_at ON ${s}.entries (updated_at)`,
      `CREATE TABLE ${s}.staging (
        id text COLLATE "C" PRIMARY KEY,
        session text NOT NULL,
        created_at bigint NOT NULL
      )`,
      `CREATE INDEX staging_created_at ON ${s}.staging (created_at)`,
      `CREATE TABLE ${s}.retired (
        content_id text COLLATE "C" PRIMARY KEY,
        retired_at bigint NOT NULL
      )`,
      `CREATE INDEX retired_retired_at ON ${s}.retired (retired_at)`,
      `CREATE TABLE ${s}.chunk_data (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        data bytea NOT NULL,
        tsv tsvector
      )`,
      `CREATE INDEX chunk_data_tsv ON ${s}.chunk_data USING gin (tsv)`,
      `CREATE TABLE ${s}.chunks (
        content_id text COLLATE "C" NOT NULL,
        seq integer NOT NULL,
        byte_start bigint NOT NULL,
        char_start bigint NOT NULL,
        line_start bigint NOT NULL,
        bytes integer NOT NULL,
        chars integer NOT NULL,
        newlines integer NOT NULL,
        data_id bigint NOT NULL REFERENCES ${s}.chunk_data (id),
        PRIMARY KEY (content_id, seq)
      )`,
      `CREATE INDEX chunks_byte ON ${s}.chunks (content_id, byte_start, seq)`,
      `CREATE INDEX chunks_char ON ${s}.chunks (content_id, char_start, seq)`,
      `CREATE INDEX chunks_line ON ${s}.chunks (content_id, line_start, seq)`,
      `CREATE INDEX chunks_data_id ON ${s}.chunks (data_id)`,
      // PostgreSQL text cannot hold NUL, which text entries may: NULs read as spaces. Invalid UTF-8 cannot occur
      // in a text entry; should it anyway, the chunk reads as empty rather than breaking every search.
      `CREATE FUNCTION ${s}.chunk_text(data bytea) RETURNS text
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        DECLARE
          nul constant bytea := decode('00', 'hex');
          rest bytea := data;
          cleaned bytea := decode('', 'hex');
          at integer := position(nul IN data);
        BEGIN
          WHILE at > 0 LOOP
            cleaned := cleaned || substring(rest FROM 1 FOR at - 1) || decode('20', 'hex');
            rest := substring(rest FROM at + 1);
            at := position(nul IN rest);
          END LOOP;
          RETURN convert_from(cleaned || rest, 'UTF8');
        EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
          RETURN '';
        END
        $fn$`,
      // A tsvector holds at most 1 MB: a chunk too varied for that (only with a very large chunk size) is
      // indexed by its first 64K characters instead of failing the search.
      `CREATE FUNCTION ${s}.chunk_tsvector(data bytea) RETURNS tsvector
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        DECLARE
          words text := ${splitJoinedWords(`${s}.chunk_text(data)`)};
        BEGIN
          RETURN to_tsvector('simple', words);
        EXCEPTION WHEN program_limit_exceeded THEN
          RETURN to_tsvector('simple', left(words, 65536));
        END
        $fn$`,
    ],
  },
  {
    // Entries a size cap may evict (offloaded tool results); what someone wrote is never evicted.
    version: 2,
    statements: (s) => [`ALTER TABLE ${s}.entries ADD COLUMN evictable boolean NOT NULL DEFAULT false`],
  },
  {
    // A session's listing by creation or update time, and a turn's oldest first, are index ranges, so a page
    // after a keyset cursor costs the page (decision 009). Listing by name uses the primary key (session, name).
    version: 3,
    statements: (s) => [
      `CREATE INDEX entries_session_created ON ${s}.entries (session, created_at, name)`,
      `CREATE INDEX entries_session_updated ON ${s}.entries (session, updated_at, name)`,
      `DROP INDEX ${s}.entries_session_turn`,
      `CREATE INDEX entries_session_turn ON ${s}.entries (session, turn, created_at, name)`,
    ],
  },
  {
    // A small write in one round trip (decision 006): see writeEntryFunction (postgres-write-entry.ts).
    version: 4,
    statements: (s) => [writeEntryFunction(s, 4)],
  },
  {
    // write_entry checks the entry's id too (a name deleted and created again starts over at version 1). An
    // overload (one argument more): processes of the previous release, still running, keep calling theirs.
    version: 5,
    statements: (s) => [writeEntryFunction(s, 5)],
  },
  {
    // Chunk bytes compressed with lz4 rather than pglz (decision 010): pglz compressed at ~55 MiB/s, the most
    // of a large write's time, and decompressed at about half lz4's speed for every grep. Rows written before
    // stay pglz (both read the same). A server built without lz4, or before PostgreSQL 14, keeps pglz.
    version: 6,
    statements: (s) => [
      `DO $do$
       BEGIN
         IF current_setting('server_version_num')::integer >= 140000 THEN
           EXECUTE 'ALTER TABLE ${s}.chunk_data ALTER COLUMN data SET COMPRESSION lz4';
         END IF;
       EXCEPTION WHEN feature_not_supported THEN
         NULL;
       END
       $do$`,
    ],
  },
  {
    // Fewer index entries per small write (decision 006, fifth pass), as SQLite's migrations 7 and 9. A
    // content's first chunk starts at 0 on every axis, so the axis indexes leave it out: locating asks for
    // `seq > 0` and answers chunk 0 when none is found, and a content of one chunk (every write up to 256 KiB)
    // adds nothing to them. `entries_updated_at` served only the store-wide lists by update time (gc's expired
    // entries search `entries_expires_at`; the cap's eviction candidates read every unpinned entry anyway, and
    // sort them); a session's list by update time has `entries_session_updated`. A turn's listing asks
    // `turn = $n`, which implies `turn IS NOT NULL`, so an entry written outside a turn is left out of
    // `entries_session_turn`. A search asks `tsv @@ query` (strict: it implies `tsv IS NOT NULL`), so the chunks
    // not indexed yet, every chunk a write adds, are left out of the GIN index.
    version: 7,
    statements: (s) => [
      `DROP INDEX ${s}.chunks_byte`,
      `DROP INDEX ${s}.chunks_char`,
      `DROP INDEX ${s}.chunks_line`,
      `CREATE INDEX chunks_byte ON ${s}.chunks (content_id, byte_start, seq) WHERE seq > 0`,
      `CREATE INDEX chunks_char ON ${s}.chunks (content_id, char_start, seq) WHERE seq > 0`,
      `CREATE INDEX chunks_line ON ${s}.chunks (content_id, line_start, seq) WHERE seq > 0`,
      `DROP INDEX ${s}.entries_updated_at`,
      `DROP INDEX ${s}.entries_session_turn`,
      `CREATE INDEX entries_session_turn ON ${s}.entries (session, turn, created_at, name) WHERE turn IS NOT NULL`,
      // Rebuilding the GIN reads every tsvector with chunk_data locked against reads and writes, until the
      // migration commits (~1 s per 5 MiB of index for varied text): a larger one stays whole here, and decision
      // 006 gives the statements that make it partial concurrently.
      `DO $do$
       BEGIN
         IF pg_relation_size('${s}.chunk_data_tsv') <= ${GIN_REBUILT_UP_TO_BYTES} THEN
           DROP INDEX ${s}.chunk_data_tsv;
           CREATE INDEX chunk_data_tsv ON ${s}.chunk_data USING gin (tsv) WHERE tsv IS NOT NULL;
         END IF;
       END
       $do$`,
    ],
  },
  {
    // Locating a position has one good plan, a backward seek on the axis index (one row read). The planner
    // takes it only while its statistics know that the content is large: for a content written since the last
    // ANALYZE (or one too small a share of a big table to be among its most common values) it estimates a row or
    // two, and reads every chunk of the content through the primary key and sorts them instead: 8 ms for a
    // 1 GiB entry of 64 KiB chunks, where the seek takes 0.05 ms (decision 010). The locate runs in this
    // function, whose plans may not sort (`enable_sort = off` while it runs), so the seek is the plan whatever
    // the statistics say. It answers 0 when no chunk after the first starts at or before the position.
    version: 8,
    statements: (s) => [
      `CREATE FUNCTION ${s}.locate_chunk(p_content text, p_axis text, p_position bigint, p_count bigint)
       RETURNS bigint LANGUAGE plpgsql STABLE SET enable_sort = off AS $fn$
       BEGIN
         IF p_axis = 'byte' THEN
           RETURN coalesce((SELECT seq FROM ${s}.chunks
             WHERE content_id = p_content AND byte_start <= p_position AND seq > 0 AND seq < p_count
             ORDER BY byte_start DESC, seq DESC LIMIT 1), 0);
         ELSIF p_axis = 'char' THEN
           RETURN coalesce((SELECT seq FROM ${s}.chunks
             WHERE content_id = p_content AND char_start <= p_position AND seq > 0 AND seq < p_count
             ORDER BY char_start DESC, seq DESC LIMIT 1), 0);
         ELSIF p_axis = 'line' THEN
           RETURN coalesce((SELECT seq FROM ${s}.chunks
             WHERE content_id = p_content AND line_start <= p_position AND seq > 0 AND seq < p_count
             ORDER BY line_start DESC, seq DESC LIMIT 1), 0);
         END IF;
         RAISE EXCEPTION 'locate_chunk: no axis %', p_axis;
       END
       $fn$`,
    ],
  },
  {
    // Search finds every word (core/script-segments.ts), as SQLite's migration 10. `segment_scripts` puts a
    // zero-width space around each CJK and Thai character (the parser made one word of `エラーが発生しました`),
    // for the indexed text and the query words alike; `seam_prefix` is the end of a chunk (its last run of
    // non-space characters) that the next chunk's tsvector starts with, so a word a chunk boundary cuts is whole
    // in one tsvector; `index_tsvector` is a chunk's tsvector from both. Every tsvector is dropped: the next
    // searches of a session index it again in the background, and say how far they got meanwhile. `OR REPLACE`:
    // a store made at a later version and set back (as tests do) runs it again.
    version: 9,
    statements: (s) => [
      `CREATE OR REPLACE FUNCTION ${s}.segment_scripts(words text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        SELECT regexp_replace(words, ${sqlString(`(${postgresSegmentedClass()})`)},
          ${sqlString(`${SEGMENT_BREAK}\\1${SEGMENT_BREAK}`)}, 'g')
        $fn$`,
      `CREATE OR REPLACE FUNCTION ${s}.seam_prefix(body text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        SELECT substring(right(body, ${SEAM_CHARS}) FROM '\\S*$')
        $fn$`,
      `CREATE OR REPLACE FUNCTION ${s}.index_tsvector(seam text, data bytea) RETURNS tsvector
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
        DECLARE
          words text := ${s}.segment_scripts(${splitJoinedWords(`(coalesce(seam, '') || ${s}.chunk_text(data))`)});
        BEGIN
          RETURN to_tsvector('simple', words);
        EXCEPTION WHEN program_limit_exceeded THEN
          RETURN to_tsvector('simple', left(words, 65536));
        END
        $fn$`,
      `UPDATE ${s}.chunk_data SET tsv = NULL WHERE tsv IS NOT NULL`,
    ],
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.reduce(
  (latest, migration) => Math.max(latest, migration.version),
  0,
);

/**
 * The tables a migration locks, in this order: the ones large content makes long to wait for first, so that while
 * it waits for them it holds little. Not `schema_migrations`, which the advisory lock guards and which every
 * opening process reads first.
 */
const TABLES = ['chunk_data', 'chunks', 'entries', 'retired', 'staging', 'sessions'];

/**
 * Brings `schema` up to {@link SCHEMA_VERSION}, idempotently, in one transaction. Under a transaction-scoped
 * advisory lock keyed by the schema name (the key earlier releases take too), so processes that start at the
 * same moment apply each migration exactly once, one at a time; the others wait for that lock as long as its
 * holder takes, then find the schema current. A migration rebuilds indexes, which takes as long as the tables are
 * large, so it runs without a statement timeout, on a pool of its own when `openMigrationPool` gives one (the
 * driver's own pool fails a statement after its query timeout; the migration pool has none, and is ended after).
 * Each attempt, in a savepoint, first locks the driver's tables, waiting for another client's transaction that has
 * read one at most a fifth of a second, then up to a second (that client's peers queue behind the wait, no
 * longer); on a timeout or a deadlock it rolls back to the savepoint, which lets go of every table, pauses at least
 * as long and tries again, giving up within `lockWaitMs` of the call's start (one attempt at least): then it fails
 * with `STORE_UNAVAILABLE` naming the connections that hold the locks, having changed nothing.
 */
export async function migrate(
  pool: PostgresPool,
  schema: string,
  quoted: string,
  target: PostgresTarget,
  options: { lockWaitMs: number; openMigrationPool?: () => Promise<PostgresPool> },
): Promise<void> {
  const started = Date.now();
  if ((await currentVersion(pool, schema, quoted, target)) === SCHEMA_VERSION) return;
  const migrationPool = options.openMigrationPool ? await options.openMigrationPool() : pool;
  try {
    await withTransaction(migrationPool, async (client) => {
      // No bound the server's or the role's settings set: the migration takes as long as its tables are large,
      // and bounds its own lock waits below. (transaction_timeout exists from PostgreSQL 17 on.)
      await client.query('SET LOCAL statement_timeout = 0');
      await client.query('SET LOCAL lock_timeout = 0');
      await client.query('SET LOCAL idle_in_transaction_session_timeout = 0');
      await client.query(
        `DO $do$ BEGIN IF current_setting('server_version_num')::integer >= 170000 THEN EXECUTE 'SET LOCAL transaction_timeout = 0'; END IF; END $do$`,
      );
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `agent-scratchpad:${schema}`,
      ]);
      const remaining = options.lockWaitMs - (Date.now() - started);
      await retryOnLockTimeout(client, { schema, tables: TABLES }, remaining, async (lockTimeout) => {
        await client.query('SAVEPOINT migration_attempt');
        try {
          await client.query(lockTimeout);
          await applyMigrations(client, schema, quoted, target);
          await client.query('RELEASE SAVEPOINT migration_attempt');
        } catch (error) {
          // Only a lost lock wait is tried again, from the savepoint (which lets go of every table); any other
          // error fails the whole transaction as it is, and so does a rollback that fails (a broken connection).
          if (isLostLockWait(error)) await client.query('ROLLBACK TO SAVEPOINT migration_attempt');
          throw error;
        }
      });
    });
  } catch (error) {
    throw error instanceof LockWaitExhausted ? lockedOut(error, target, schema) : error;
  } finally {
    if (migrationPool !== pool) await migrationPool.end().catch(() => {});
  }
}

async function applyMigrations(
  client: PostgresClient,
  schema: string,
  quoted: string,
  target: PostgresTarget,
): Promise<void> {
  // Checked first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the schema exists.
  const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${quoted}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const found = await client.query(
    `SELECT coalesce(max(version), 0) AS version FROM ${quoted}.schema_migrations`,
  );
  const version = Number(found.rows[0]?.version ?? 0);
  if (version > SCHEMA_VERSION) throw tooNew(version, target, schema);
  if (version === SCHEMA_VERSION) return;
  // Every table the migrations change, locked before any of their work, so an attempt that times out on one has
  // nothing to do again (while it waits it holds the tables before it in the list, hence the deadlocks retried).
  // Only this driver's tables: a schema it shares with others' tables (public, say) keeps those free. Migration 1
  // made them all, so they exist at any version but 0, where there is nothing to wait for.
  if (version > 0) {
    await client.query(
      `LOCK TABLE ${TABLES.map((table) => `${quoted}.${table}`).join(', ')} IN ACCESS EXCLUSIVE MODE`,
    );
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= version) continue;
    for (const statement of migration.statements(quoted)) await client.query(statement);
    await client.query(`INSERT INTO ${quoted}.schema_migrations (version) VALUES ($1)`, [migration.version]);
  }
}

async function currentVersion(
  pool: PostgresPool,
  schema: string,
  quoted: string,
  target: PostgresTarget,
): Promise<number | undefined> {
  const table = await pool.query('SELECT to_regclass($1) IS NOT NULL AS ready', [
    `${quoted}.schema_migrations`,
  ]);
  if (table.rows[0]?.ready !== true) return undefined;
  const found = await pool.query(
    `SELECT coalesce(max(version), 0) AS version FROM ${quoted}.schema_migrations`,
  );
  const version = Number(found.rows[0]?.version ?? 0);
  if (version > SCHEMA_VERSION) throw tooNew(version, target, schema);
  return version;
}

function lockedOut(exhausted: LockWaitExhausted, target: PostgresTarget, schema: string): ScratchpadError {
  const holders =
    exhausted.holders.length === 0
      ? ''
      : ` Holding locks on them: ${describeLockHolders(exhausted.holders)}.`;
  return new ScratchpadError(
    'STORE_UNAVAILABLE',
    `Upgrading the Scratchpad tables in ${formatTarget(target)}, schema ${schema}, to version ${SCHEMA_VERSION} gave up after ${exhausted.waitedMs} ms of trying to lock them, which other connections kept from it; nothing was changed.${holders}`,
    {
      hint: 'Let those transactions finish (or end one: SELECT pg_terminate_backend(pid)), then open the store again; a larger queryTimeoutMs tries longer.',
      details: { holders: exhausted.holders.map((holder) => ({ ...holder })), waitedMs: exhausted.waitedMs },
      cause: exhausted.cause,
    },
  );
}

function tooNew(version: number, target: PostgresTarget, schema: string): ScratchpadError {
  return new ScratchpadError(
    'STORE_UNAVAILABLE',
    `The Scratchpad tables in ${formatTarget(target)}, schema ${schema}, are at version ${version}; this version of llm-scratchpad knows up to ${SCHEMA_VERSION}.`,
    {
      hint: 'Upgrade llm-scratchpad, or use another schema or database.',
      details: { version, supported: SCHEMA_VERSION },
    },
  );
}
