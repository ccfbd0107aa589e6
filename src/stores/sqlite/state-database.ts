import { untilNotBusy } from './busy-pauses.js';
import { configureDatabase, openDatabaseFile, type SqliteDatabase } from './sqlite-database.js';
import { toStoreError } from './sqlite-errors.js';

/**
 * A small SQLite file of runtime state (the mnestome, the scheduler's state): opened with the store's pragmas
 * (WAL) and its schema, every failure turned into the `ScratchpadError` that names the file (`STORE_UNAVAILABLE`,
 * `STORE_CORRUPT`, `STORE_FULL`). Once open, an operation that finds another process holding the file's lock
 * tries again after pauses that leave the event loop free (`untilNotBusy`, as the store does: decision 012),
 * for up to the busy timeout; SQLite's own wait would sleep in this thread.
 */
export class StateDatabase {
  readonly path: string;
  readonly #database: SqliteDatabase;
  readonly #busyTimeoutMs: number;

  private constructor(path: string, database: SqliteDatabase, busyTimeoutMs: number) {
    this.path = path;
    this.#database = database;
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  /**
   * Opens (creating it and its folder when missing) the file at `path` and applies `schema` (idempotent DDL).
   * Opening waits for a competing process in this thread, as opening a store does.
   */
  static open(path: string, schema: string, busyTimeoutMs = 5000): StateDatabase {
    const database = openDatabaseFile(path);
    try {
      configureDatabase(database, busyTimeoutMs);
      database.exec(schema);
      database.exec('PRAGMA busy_timeout = 0');
    } catch (error) {
      database.close();
      throw toStoreError(error, path);
    }
    return new StateDatabase(path, database, busyTimeoutMs);
  }

  /** Runs `operation` on the connection, mapping SQLite failures to errors that name the file. */
  async run<Result>(operation: (database: SqliteDatabase) => Result): Promise<Result> {
    try {
      return await untilNotBusy(() => operation(this.#database), this.#busyTimeoutMs);
    } catch (error) {
      throw toStoreError(error, this.path, this.#busyTimeoutMs);
    }
  }

  /** Runs `body` in one `BEGIN IMMEDIATE` transaction (rolled back when it throws; tried again while busy). */
  transaction<Result>(body: (database: SqliteDatabase) => Result): Promise<Result> {
    return this.run((database) => {
      database.exec('BEGIN IMMEDIATE');
      try {
        const result = body(database);
        database.exec('COMMIT');
        return result;
      } catch (error) {
        database.exec('ROLLBACK');
        throw error;
      }
    });
  }

  close(): void {
    this.#database.close();
  }
}
