import type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';

/**
 * Runs work in `BEGIN IMMEDIATE` transactions: the write lock is taken up front (waiting up to the busy timeout),
 * so a transaction never fails halfway on a lock upgrade, and compare-and-set reads see the state they write over.
 */
export class ImmediateTransaction {
  readonly #begin: SqliteStatement;
  readonly #commit: SqliteStatement;
  readonly #rollback: SqliteStatement;
  readonly #afterCommit: (() => void) | undefined;

  /** @param afterCommit called after each transaction that committed. */
  constructor(database: SqliteDatabase, afterCommit?: () => void) {
    this.#afterCommit = afterCommit;
    this.#begin = database.prepare('BEGIN IMMEDIATE');
    this.#commit = database.prepare('COMMIT');
    this.#rollback = database.prepare('ROLLBACK');
  }

  /** Runs `body` in one transaction. `body` must be synchronous: nothing else may run inside the transaction. */
  run<T>(body: () => T): T {
    this.#begin.run();
    try {
      const result = body();
      this.#commit.run();
      this.#afterCommit?.();
      return result;
    } catch (error) {
      try {
        this.#rollback.run();
      } catch {
        // A failed statement or COMMIT may already have ended the transaction.
      }
      throw error;
    }
  }
}
