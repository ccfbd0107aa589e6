import type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';

/**
 * The sessions a search found fully indexed, and whether the database may have changed since: a search of such a
 * session skips its indexing step (on the index thread: a message there and back, and a write transaction to find
 * nothing to index), which took a fair part of a rare word's search.
 *
 * The database changed when another connection committed (the index thread, another process: SQLite's
 * `data_version` moves) or this one changed a row (`total_changes()` moves; an indexing step that found nothing
 * changes none).
 */
export class IndexedSessions {
  readonly #mark: SqliteStatement;
  /** Per session, the change mark read just before the search that found it fully indexed. */
  readonly #marks = new Map<string, string>();

  constructor(database: SqliteDatabase) {
    this.#mark = database.prepare(
      'SELECT (SELECT data_version FROM pragma_data_version) AS version, total_changes() AS changes',
    );
  }

  /** What changes whenever the database may have: read it before asking whether a session is indexed. */
  mark(): string {
    const row = this.#mark.get() as { version: number; changes: number };
    return `${row.version}:${row.changes}`;
  }

  /** True when `session` was found fully indexed and nothing changed since (`mark` is {@link mark}'s now). */
  unchanged(session: string, mark: string): boolean {
    return this.#marks.get(session) === mark;
  }

  /** `session` was found fully indexed by a check that began at `mark`. */
  found(session: string, mark: string): void {
    this.#marks.set(session, mark);
  }
}
