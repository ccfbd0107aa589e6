/** What running a statement reports. */
export interface SqliteRunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** The part of a prepared statement the driver uses (node:sqlite's `StatementSync`, better-sqlite3's `Statement`). */
export interface SqliteStatement {
  run(...parameters: unknown[]): SqliteRunResult;
  get(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
}

/**
 * The part of a SQLite connection the driver uses. Pass your own connection (any object of this shape, e.g. a
 * better-sqlite3 `Database` or one opened with custom options or a custom build) instead of a path: blobs must
 * come back as Buffers and errors carry SQLite's result code name as `code` (`SQLITE_BUSY`). The connections the
 * package opens itself come from node:sqlite or @photostructure/sqlite (`sqlite-binding.ts`, decision 014).
 */
export interface SqliteDatabase {
  /** The file name, used in error messages. */
  readonly name?: string;
  prepare(source: string): SqliteStatement;
  exec(source: string): unknown;
  /**
   * Registers a SQL function implemented in JavaScript (its arity is the implementation's `length`). The driver registers one
   * that reads chunk text from side files for the full-text index.
   */
  function(
    name: string,
    options: { deterministic?: boolean; varargs?: boolean },
    implementation: (...parameters: unknown[]) => unknown,
  ): unknown;
  close(): unknown;
}
