import { configureDatabase, openDatabaseFile, type SqliteDatabase } from './sqlite-database.js';
import { toStoreError } from './sqlite-errors.js';

/**
 * A small SQLite file of runtime state (the mnestome, the scheduler's state): opened with the store's pragmas
 * (WAL, busy timeout) and its schema, every failure turned into the `ScratchpadError` that names the file
 * (`STORE_UNAVAILABLE`, `STORE_CORRUPT`, `STORE_FULL`).
 */
export class StateDatabase {
  readonly path: string;
  readonly #database: SqliteDatabase;

  private constructor(path: string, database: SqliteDatabase) {
    this.path = path;
    this.#database = database;
  }

  /** Opens (creating it and its folder when missing) the file at `path` and applies `schema` (idempotent DDL). */
  static open(path: string, schema: string, busyTimeoutMs = 5000): StateDatabase {
    const database = openDatabaseFile(path);
    try {
      configureDatabase(database, busyTimeoutMs);
      database.exec(schema);
    } catch (error) {
      database.close();
      throw toStoreError(error, path);
    }
    return new StateDatabase(path, database);
  }

  /** Runs `operation` on the connection, mapping SQLite failures to errors that name the file. */
  run<Result>(operation: (database: SqliteDatabase) => Result): Result {
    try {
      return operation(this.#database);
    } catch (error) {
      throw toStoreError(error, this.path);
    }
  }

  /** Runs `body` in one `BEGIN IMMEDIATE` transaction (rolled back when it throws). */
  transaction<Result>(body: (database: SqliteDatabase) => Result): Result {
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
