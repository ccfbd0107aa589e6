import type { EntryRecord, SessionInfo } from '../../core/entry.js';
import type { ListQuery, StoreTotals } from '../driver.js';
import { listEntriesSql } from './list-query.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';
import { ENTRY_COLUMNS, type EntryRow, entryParameters, toEntryRecord } from './sqlite-records.js';

const ENTRY_VALUES = ENTRY_COLUMNS.split(', ')
  .map((column) => `@${column}`)
  .join(', ');
/** Columns an index of `entries` holds (besides the key): an update sets them only when their value changes. */
const INDEXED_COLUMNS = ['id', 'turn', 'created_at', 'updated_at', 'expires_at', 'content'];
/** Columns no index holds: an update always sets them (the row is rewritten anyway). */
const UNINDEXED_COLUMNS = ENTRY_COLUMNS.split(', ').filter(
  (column) => column !== 'session' && column !== 'name' && !INDEXED_COLUMNS.includes(column),
);

/** The `entries` and `sessions` tables. Every statement is prepared once (list statements once per shape). */
export class EntryTable {
  readonly #database: SqliteDatabase;
  readonly #get: SqliteStatement;
  readonly #getById: SqliteStatement;
  readonly #getByContent: SqliteStatement;
  readonly #insert: SqliteStatement;
  /** Update statements by the indexed columns they set (at most 2^6 shapes). */
  readonly #updates = new Map<string, SqliteStatement>();
  readonly #delete: SqliteStatement;
  readonly #touchSession: SqliteStatement;
  readonly #sessionExists: SqliteStatement;
  readonly #listSessions: SqliteStatement;
  readonly #sessionTotals: SqliteStatement;
  readonly #sessionContents: SqliteStatement;
  readonly #deleteSessionEntries: SqliteStatement;
  readonly #deleteSession: SqliteStatement;
  readonly #totals: SqliteStatement;
  readonly #lists = new Map<string, SqliteStatement>();

  constructor(database: SqliteDatabase) {
    this.#database = database;
    this.#get = database.prepare(`SELECT ${ENTRY_COLUMNS} FROM entries WHERE session = ? AND name = ?`);
    this.#getById = database.prepare(
      `SELECT ${ENTRY_COLUMNS} FROM entries WHERE id = ? ORDER BY session, name LIMIT 1`,
    );
    this.#getByContent = database.prepare(`SELECT ${ENTRY_COLUMNS} FROM entries WHERE content = ?`);
    this.#insert = database.prepare(`INSERT INTO entries (${ENTRY_COLUMNS}) VALUES (${ENTRY_VALUES})`);
    this.#delete = database.prepare('DELETE FROM entries WHERE session = ? AND name = ?');
    this.#touchSession = database.prepare(
      'INSERT INTO sessions (id, created_at, updated_at) VALUES (@session, @now, @now) ON CONFLICT (id) DO UPDATE SET updated_at = @now',
    );
    this.#sessionExists = database.prepare('SELECT 1 FROM sessions WHERE id = ?');
    this.#listSessions = database.prepare(
      `SELECT sessions.id AS id, count(entries.name) AS entries, coalesce(sum(entries.bytes), 0) AS bytes,
              sessions.created_at AS createdAt, sessions.updated_at AS updatedAt
       FROM sessions LEFT JOIN entries ON entries.session = sessions.id
       GROUP BY sessions.id ORDER BY sessions.id`,
    );
    this.#sessionTotals = database.prepare(
      'SELECT count(*) AS entries, coalesce(sum(bytes), 0) AS bytes FROM entries WHERE session = ?',
    );
    this.#sessionContents = database.prepare('SELECT content FROM entries WHERE session = ?');
    this.#deleteSessionEntries = database.prepare('DELETE FROM entries WHERE session = ?');
    this.#deleteSession = database.prepare('DELETE FROM sessions WHERE id = ?');
    this.#totals = database.prepare(
      `SELECT (SELECT count(*) FROM sessions) AS sessions, count(*) AS entries, coalesce(sum(bytes), 0) AS bytes,
              coalesce(sum(CASE WHEN pinned THEN bytes ELSE 0 END), 0) AS pinnedBytes
       FROM entries`,
    );
  }

  /** The entry `name` of `session`, expired or not. */
  get(session: string, name: string): EntryRecord | undefined {
    const row = this.#get.get(session, name) as EntryRow | undefined;
    return row ? toEntryRecord(row) : undefined;
  }

  /** The entry with id `id`, in whichever session. */
  getById(id: string): EntryRecord | undefined {
    const row = this.#getById.get(id) as EntryRow | undefined;
    return row ? toEntryRecord(row) : undefined;
  }

  /** The entry whose content is `content`, if any. */
  getByContent(content: number): EntryRecord | undefined {
    const row = this.#getByContent.get(content) as EntryRow | undefined;
    return row ? toEntryRecord(row) : undefined;
  }

  /** Adds a new entry row. */
  insert(record: EntryRecord): void {
    this.#insert.run(entryParameters(record));
  }

  /**
   * Overwrites the entry `record.session`/`record.name`, whose row is `current` (read in the same transaction),
   * with `record`. An indexed column is set only when its value changes: SQLite rewrites the entries of every
   * index over a column an `UPDATE` sets, even to the same value, and each is a WAL page per write (a replace
   * keeps the id, turn and creation time: three of the six entry indexes stay untouched; decision 006).
   */
  update(record: EntryRecord, current: EntryRecord): void {
    const parameters = entryParameters(record);
    const before = entryParameters(current);
    const changed = INDEXED_COLUMNS.filter((column) => parameters[column] !== before[column]);
    const key = changed.join(',');
    let statement = this.#updates.get(key);
    if (!statement) {
      const assignments = [...UNINDEXED_COLUMNS, ...changed]
        .map((column) => `${column} = @${column}`)
        .join(', ');
      statement = this.#database.prepare(
        `UPDATE entries SET ${assignments} WHERE session = @session AND name = @name`,
      );
      this.#updates.set(key, statement);
    }
    statement.run(parameters);
  }

  /** Removes the entry row (the caller retires its content). */
  delete(session: string, name: string): void {
    this.#delete.run(session, name);
  }

  /** Entries matching every filter of `query`, in its order. */
  list(query: ListQuery): EntryRecord[] {
    const { sql, parameters } = listEntriesSql(query);
    let statement = this.#lists.get(sql);
    if (!statement) {
      statement = this.#database.prepare(sql);
      this.#lists.set(sql, statement);
    }
    return (statement.all(...parameters) as EntryRow[]).map(toEntryRecord);
  }

  /** Creates the session or bumps its `updatedAt`. */
  touchSession(session: string, now: number): void {
    this.#touchSession.run({ session, now });
  }

  /** True when the session row exists. */
  sessionExists(session: string): boolean {
    return this.#sessionExists.get(session) !== undefined;
  }

  /** Every session with its entry count and bytes, by id. */
  listSessions(): SessionInfo[] {
    return this.#listSessions.all() as SessionInfo[];
  }

  /** Entries and bytes of one session. */
  sessionTotals(session: string): { entries: number; bytes: number } {
    return this.#sessionTotals.get(session) as { entries: number; bytes: number };
  }

  /** Content keys of every entry of a session. */
  sessionContents(session: string): number[] {
    return (this.#sessionContents.all(session) as Array<{ content: number }>).map((row) => row.content);
  }

  /** Deletes a session's entries and the session row (the caller deletes their contents). */
  deleteSession(session: string): void {
    this.#deleteSessionEntries.run(session);
    this.#deleteSession.run(session);
  }

  /** Totals over the whole store. */
  totals(): StoreTotals {
    return this.#totals.get() as StoreTotals;
  }
}
