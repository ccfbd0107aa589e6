import { ScratchpadError } from '../../core/errors.js';
import type { SqliteDatabase } from './sqlite-database.js';

/** `PRAGMA application_id` of a scratchpad file ("SPAD"), so we never adopt someone else's database. */
export const APPLICATION_ID = 0x53504144;

/**
 * The text of a chunk in SQL, wherever and however its bytes are stored: an uncompressed inline chunk is cast
 * in SQL; a compressed one, or one in a side file, goes through the `scratchpad_chunk_body` function the driver
 * registers on its connection (see `chunk-text-function.ts`). Needs `LEFT JOIN chunk_data` and
 * `LEFT JOIN blob_files` on the chunk. Migration 5 spells out the same expression in the `search_source` view
 * (a migration never changes).
 */
export const CHUNK_TEXT =
  'CASE WHEN chunks.file IS NULL AND chunks.codec = 0 THEN CAST(chunk_data.data AS TEXT) ' +
  'ELSE scratchpad_chunk_body(chunks.codec, chunk_data.data, blob_files.name, chunks.file_offset, ' +
  'coalesce(chunks.stored_bytes, chunks.bytes), chunks.bytes) END';

/**
 * The text of a chunk's full-text index row (see `index-text-function.ts`): the end of the chunk before it
 * (`chunks.seam`, set when the chunk is indexed) and its own text, CJK and Thai characters segmented. Needs the
 * joins of {@link CHUNK_TEXT}. Migration 10 spells out the same expression in the `search_source` view.
 */
export const INDEX_TEXT = `scratchpad_index_text(chunks.seam, ${CHUNK_TEXT})`;

/**
 * Migrations: `MIGRATIONS[n]` takes the schema from `user_version` n to n + 1. Append, never edit.
 *
 * Version 1:
 * - `contents` names a chunk sequence; a row is a staging area until a commit marks it `committed`, and is
 *   `retired_at` once replaced or deleted: it stays readable for a while, so a reader holding the previous record
 *   still reads a consistent version. `AUTOINCREMENT` so an id is never reused: a reader holding an old record
 *   can never see another entry's chunks.
 * - `chunks` is the small index row of a chunk (offsets on every axis), `chunk_data` its bytes under the same id.
 *   An append re-keys the staged chunks onto the entry's content by rewriting index rows only, never the blobs.
 *   One index per axis makes locating a position one index seek.
 * - `search_index` is an FTS5 index over `search_source` (chunk text + entry name), filled lazily by searches.
 *   The view shows exactly the chunks marked `indexed`, so the index always equals its content table (FTS5's
 *   `integrity-check` and `rebuild` hold).
 *
 * Version 2 (side files, see `README.md`):
 * - `blob_files` names the side files of `<database>.blobs/`. `owner` is the staging area that writes the file;
 *   a file is garbage once its owner content is gone and no chunk points at it. `AUTOINCREMENT` and a random
 *   name part so a name is never reused.
 * - A chunk's bytes are either a `chunk_data` row (`file` NULL) or `bytes` bytes at `file_offset` of side file
 *   `file`. An append re-keys chunk rows as before; a content's chunks may live in several files.
 * - `search_source` reads a chunk's text wherever it is stored.
 *
 * Version 5 (compressed chunks, decision 008):
 * - `chunks.codec` says how the chunk's bytes are stored (0 = as written; see `CODEC_IDS` in
 *   `../chunk-codec.ts`) and `chunks.stored_bytes` how many bytes that takes (NULL = `bytes`). Existing chunks
 *   keep codec 0, so an older store reads as before with no rewrite.
 * - `search_source` decompresses through `scratchpad_chunk_body`.
 *
 * Version 8 (queued un-indexing, see `sqlite-search.ts`):
 * - `search_unindex` lists the contents whose indexed chunks must leave the index: a deleted or replaced
 *   entry's content, or the chunks an append rewrites (moved to a retired content of their own). `name` is the
 *   entry name they were indexed under; FTS5 needs it, and the chunk text, to remove a row. A queued content is
 *   never purged, so its text stays readable until the queue is done with it.
 * - `search_source` shows the queued contents' indexed chunks too, so the view still equals the index.
 *
 * Version 10 (search finds every word, see `core/script-segments.ts`):
 * - `chunks.seam` is the end of the chunk before (the non-space run it ends with), which the chunk's index row
 *   starts with, so a word a chunk boundary cuts is whole in one row. Set when the chunk is indexed; kept so
 *   un-indexing replays the same text.
 * - Index rows hold the text through `scratchpad_index_text`, which also segments CJK and Thai characters one by
 *   one (the tokenizer left `エラーが発生しました` one word).
 * - The index is emptied and every chunk marked not indexed: a store indexed before is indexed again, in the
 *   background, by its next searches (they say how far indexing got). The un-indexing queue is emptied with it.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE contents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    committed INTEGER NOT NULL DEFAULT 0,
    retired_at INTEGER
  ) STRICT;
  CREATE INDEX contents_staging ON contents (created_at) WHERE committed = 0;
  CREATE INDEX contents_retired ON contents (retired_at) WHERE retired_at IS NOT NULL;

  CREATE TABLE entries (
    session TEXT NOT NULL REFERENCES sessions (id),
    name TEXT NOT NULL,
    id TEXT NOT NULL,
    turn TEXT,
    step INTEGER,
    source TEXT,
    kind TEXT NOT NULL CHECK (kind IN ('text', 'binary')),
    media_type TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    chars INTEGER NOT NULL,
    lines INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER,
    pinned INTEGER NOT NULL,
    version INTEGER NOT NULL,
    metadata TEXT NOT NULL,
    content INTEGER NOT NULL REFERENCES contents (id) DEFERRABLE INITIALLY DEFERRED,
    chunk_count INTEGER NOT NULL,
    PRIMARY KEY (session, name)
  ) STRICT;
  CREATE INDEX entries_by_id ON entries (id);
  CREATE INDEX entries_by_turn ON entries (session, turn);
  CREATE INDEX entries_by_expiry ON entries (expires_at) WHERE expires_at IS NOT NULL;
  CREATE INDEX entries_by_update ON entries (updated_at);
  CREATE UNIQUE INDEX entries_by_content ON entries (content);

  CREATE TABLE chunks (
    id INTEGER PRIMARY KEY,
    content INTEGER NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    byte_start INTEGER NOT NULL,
    char_start INTEGER NOT NULL,
    line_start INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    chars INTEGER NOT NULL,
    newlines INTEGER NOT NULL,
    indexed INTEGER NOT NULL DEFAULT 0,
    UNIQUE (content, seq)
  ) STRICT;
  CREATE INDEX chunks_by_byte ON chunks (content, byte_start, seq);
  CREATE INDEX chunks_by_char ON chunks (content, char_start, seq);
  CREATE INDEX chunks_by_line ON chunks (content, line_start, seq);
  CREATE INDEX chunks_not_indexed ON chunks (content) WHERE indexed = 0;

  CREATE TABLE chunk_data (
    id INTEGER PRIMARY KEY REFERENCES chunks (id) ON DELETE CASCADE,
    data BLOB NOT NULL
  ) STRICT;

  CREATE VIEW search_source AS
    SELECT chunks.id AS id, entries.name AS name, CAST(chunk_data.data AS TEXT) AS body
    FROM chunks
    JOIN entries ON entries.content = chunks.content
    JOIN chunk_data ON chunk_data.id = chunks.id
    WHERE chunks.indexed = 1;
  CREATE VIRTUAL TABLE search_index USING fts5 (
    name, body, content = 'search_source', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
  );
  `,
  `
  CREATE TABLE blob_files (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    owner INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX blob_files_by_owner ON blob_files (owner);

  ALTER TABLE chunks ADD COLUMN file INTEGER REFERENCES blob_files (id);
  ALTER TABLE chunks ADD COLUMN file_offset INTEGER;
  CREATE INDEX chunks_by_file ON chunks (file);

  DROP VIEW search_source;
  CREATE VIEW search_source AS
    SELECT chunks.id AS id, entries.name AS name,
      CASE WHEN chunks.file IS NULL THEN CAST(chunk_data.data AS TEXT)
        ELSE scratchpad_chunk_text(blob_files.name, chunks.file_offset, chunks.bytes) END AS body
    FROM chunks
    JOIN entries ON entries.content = chunks.content
    LEFT JOIN chunk_data ON chunk_data.id = chunks.id
    LEFT JOIN blob_files ON blob_files.id = chunks.file
    WHERE chunks.indexed = 1;
  `,
  // 2 → 3: entries a size cap may evict (offloaded tool results); what someone wrote is never evicted.
  `
  ALTER TABLE entries ADD COLUMN evictable INTEGER NOT NULL DEFAULT 0;
  `,
  // 3 → 4: only chunks in side files are in chunks_by_file, so writing an inline chunk (every small write)
  // touches one index page fewer (decision 006). \`file = ?\` implies \`file IS NOT NULL\`: the queries still use it.
  `
  DROP INDEX chunks_by_file;
  CREATE INDEX chunks_by_file ON chunks (file) WHERE file IS NOT NULL;
  `,
  // 4 → 5: compressed chunks (decision 008).
  `
  ALTER TABLE chunks ADD COLUMN codec INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE chunks ADD COLUMN stored_bytes INTEGER;

  DROP VIEW search_source;
  CREATE VIEW search_source AS
    SELECT chunks.id AS id, entries.name AS name,
      CASE WHEN chunks.file IS NULL AND chunks.codec = 0 THEN CAST(chunk_data.data AS TEXT)
        ELSE scratchpad_chunk_body(chunks.codec, chunk_data.data, blob_files.name, chunks.file_offset,
          coalesce(chunks.stored_bytes, chunks.bytes), chunks.bytes) END AS body
    FROM chunks
    JOIN entries ON entries.content = chunks.content
    LEFT JOIN chunk_data ON chunk_data.id = chunks.id
    LEFT JOIN blob_files ON blob_files.id = chunks.file
    WHERE chunks.indexed = 1;
  `,
  // 5 → 6: a session's listing by creation or update time, and a turn's listing (oldest first), are index ranges,
  // so a page after a keyset cursor costs the page (decision 009). Listing by name uses the primary key.
  `
  CREATE INDEX entries_by_session_created ON entries (session, created_at, name);
  CREATE INDEX entries_by_session_updated ON entries (session, updated_at, name);
  DROP INDEX entries_by_turn;
  CREATE INDEX entries_by_turn ON entries (session, turn, created_at, name);
  `,
  // 6 → 7: fewer index pages per small write (decision 006). A content's first chunk starts at 0 on every axis,
  // so the axis indexes leave it out: locating asks for \`seq > 0\` and answers chunk 0 when none is found, and a
  // content of one chunk (every write up to 256 KiB) adds nothing to them. \`entries_by_update\` served only the
  // store-wide lists by update time (gc's expired entries use \`entries_by_expiry\`; the cap's eviction candidates
  // read every unpinned entry anyway, and sort them); a session's list by update time has its own index.
  `
  DROP INDEX chunks_by_byte;
  DROP INDEX chunks_by_char;
  DROP INDEX chunks_by_line;
  CREATE INDEX chunks_by_byte ON chunks (content, byte_start, seq) WHERE seq > 0;
  CREATE INDEX chunks_by_char ON chunks (content, char_start, seq) WHERE seq > 0;
  CREATE INDEX chunks_by_line ON chunks (content, line_start, seq) WHERE seq > 0;
  DROP INDEX entries_by_update;
  `,
  // 7 → 8: un-indexing is queued (a deleted or replaced entry's index rows leave in short background steps).
  `
  CREATE TABLE search_unindex (
    content INTEGER PRIMARY KEY,
    name TEXT NOT NULL
  ) STRICT;

  DROP VIEW search_source;
  CREATE VIEW search_source AS
    SELECT chunks.id AS id, entries.name AS name,
      CASE WHEN chunks.file IS NULL AND chunks.codec = 0 THEN CAST(chunk_data.data AS TEXT)
        ELSE scratchpad_chunk_body(chunks.codec, chunk_data.data, blob_files.name, chunks.file_offset,
          coalesce(chunks.stored_bytes, chunks.bytes), chunks.bytes) END AS body
    FROM chunks
    JOIN entries ON entries.content = chunks.content
    LEFT JOIN chunk_data ON chunk_data.id = chunks.id
    LEFT JOIN blob_files ON blob_files.id = chunks.file
    WHERE chunks.indexed = 1
    UNION ALL
    SELECT chunks.id AS id, search_unindex.name AS name,
      CASE WHEN chunks.file IS NULL AND chunks.codec = 0 THEN CAST(chunk_data.data AS TEXT)
        ELSE scratchpad_chunk_body(chunks.codec, chunk_data.data, blob_files.name, chunks.file_offset,
          coalesce(chunks.stored_bytes, chunks.bytes), chunks.bytes) END AS body
    FROM search_unindex
    JOIN chunks ON chunks.content = search_unindex.content
    LEFT JOIN chunk_data ON chunk_data.id = chunks.id
    LEFT JOIN blob_files ON blob_files.id = chunks.file
    WHERE chunks.indexed = 1;
  `,
  // 8 → 9: fewer index pages per small write (decision 006). Only entries with a turn are in \`entries_by_turn\`:
  // a turn's listing asks for \`turn = ?\`, which implies \`turn IS NOT NULL\`, and nothing lists the entries
  // without one through it; an entry written outside any turn then adds nothing to it.
  `
  DROP INDEX entries_by_turn;
  CREATE INDEX entries_by_turn ON entries (session, turn, created_at, name) WHERE turn IS NOT NULL;
  `,
  // 9 → 10: index rows over chunk seams, CJK and Thai segmented; the index is built again.
  `
  DROP TABLE search_index;
  DROP VIEW search_source;
  DELETE FROM search_unindex;
  UPDATE chunks SET indexed = 0 WHERE indexed = 1;
  ALTER TABLE chunks ADD COLUMN seam TEXT;

  CREATE VIEW search_source AS
    SELECT chunks.id AS id, entries.name AS name,
      scratchpad_index_text(chunks.seam,
        CASE WHEN chunks.file IS NULL AND chunks.codec = 0 THEN CAST(chunk_data.data AS TEXT)
          ELSE scratchpad_chunk_body(chunks.codec, chunk_data.data, blob_files.name, chunks.file_offset,
            coalesce(chunks.stored_bytes, chunks.bytes), chunks.bytes) END) AS body
    FROM chunks
    JOIN entries ON entries.content = chunks.content
    LEFT JOIN chunk_data ON chunk_data.id = chunks.id
    LEFT JOIN blob_files ON blob_files.id = chunks.file
    WHERE chunks.indexed = 1
    UNION ALL
    SELECT chunks.id AS id, search_unindex.name AS name,
      scratchpad_index_text(chunks.seam,
        CASE WHEN chunks.file IS NULL AND chunks.codec = 0 THEN CAST(chunk_data.data AS TEXT)
          ELSE scratchpad_chunk_body(chunks.codec, chunk_data.data, blob_files.name, chunks.file_offset,
            coalesce(chunks.stored_bytes, chunks.bytes), chunks.bytes) END) AS body
    FROM search_unindex
    JOIN chunks ON chunks.content = search_unindex.content
    LEFT JOIN chunk_data ON chunk_data.id = chunks.id
    LEFT JOIN blob_files ON blob_files.id = chunks.file
    WHERE chunks.indexed = 1;
  CREATE VIRTUAL TABLE search_index USING fts5 (
    name, body, content = 'search_source', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
  );
  `,
];

/** The schema version this code writes (`PRAGMA user_version`). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the schema to {@link SCHEMA_VERSION} in one `BEGIN IMMEDIATE` transaction, so several processes opening
 * a new file at once create it exactly once. Refuses a newer schema and a database that belongs to someone else.
 */
export function migrateSchema(database: SqliteDatabase, path: string): void {
  const pragma = (name: string): number =>
    Number(Object.values(database.prepare(`PRAGMA ${name}`).get() as object)[0]);
  if (pragma('user_version') === SCHEMA_VERSION && pragma('application_id') === APPLICATION_ID) return;
  database.exec('BEGIN IMMEDIATE');
  try {
    const version = pragma('user_version');
    if (version > SCHEMA_VERSION) {
      throw new ScratchpadError(
        'STORE_UNAVAILABLE',
        `The store ${path} has schema version ${version}; this version of llm-scratchpad reads up to ${SCHEMA_VERSION}.`,
        {
          hint: 'Upgrade llm-scratchpad, or use another database file.',
          details: { path, version, supported: SCHEMA_VERSION },
        },
      );
    }
    const applicationId = pragma('application_id');
    const tables = database
      .prepare("SELECT count(*) AS count FROM sqlite_schema WHERE type = 'table'")
      .get() as { count: number };
    if (applicationId !== APPLICATION_ID && (applicationId !== 0 || tables.count > 0)) {
      throw new ScratchpadError(
        'STORE_UNAVAILABLE',
        `${path} is a SQLite database, but not a scratchpad store.`,
        {
          hint: 'Point the store at its own file (a new path creates one); the scratchpad does not share a database with other tables.',
          details: { path, applicationId },
        },
      );
    }
    for (let step = version; step < SCHEMA_VERSION; step++) database.exec(MIGRATIONS[step] as string);
    database.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    database.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    database.exec('COMMIT');
  } catch (error) {
    try {
      database.exec('ROLLBACK');
    } catch {
      // A failed statement may already have ended the transaction.
    }
    throw error;
  }
}
