import { isBusy, untilNotBusy } from './busy-pauses.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';

/**
 * Runs work in `BEGIN IMMEDIATE` transactions: the write lock is taken up front, so a transaction never fails
 * halfway on a lock upgrade, and compare-and-set reads see the state they write over.
 *
 * The lock is waited for in one of two ways. {@link run} lets SQLite wait (its busy handler sleeps in the calling
 * thread, up to the connection's `busy_timeout`): for a thread that may block, such as the search index thread.
 * {@link runWhenFree} never blocks (decision 012): on a connection with `busy_timeout = 0` a held lock fails the
 * `BEGIN` at once, and it tries again after a pause (1 ms, doubling to 16 ms) that leaves the event loop free,
 * until `busyTimeoutMs` passed; then it fails with SQLite's `SQLITE_BUSY` as a blocking wait would. Another
 * process's long transaction, or the index thread's commit merging FTS5 segments, then delays a write without
 * stalling the loop.
 */
export class ImmediateTransaction {
  readonly #begin: SqliteStatement;
  readonly #commit: SqliteStatement;
  readonly #rollback: SqliteStatement;
  readonly #afterCommit: (() => void) | undefined;
  readonly #busyTimeoutMs: number;
  /**
   * How many writers of this connection wait for the lock, in shared memory: another thread (the index thread)
   * reads it to let them go first.
   */
  readonly waitingWriters = new Int32Array(new SharedArrayBuffer(4));
  /** Writers of this connection waiting for the lock, and what ends their current pause early. */
  #waiting = 0;
  readonly #wakers = new Set<() => void>();
  readonly #idle = new Set<() => void>();

  /**
   * @param busyTimeoutMs how long {@link runWhenFree} tries for the lock.
   * @param afterCommit called after each transaction that committed.
   */
  constructor(database: SqliteDatabase, busyTimeoutMs: number, afterCommit?: () => void) {
    this.#afterCommit = afterCommit;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#begin = database.prepare('BEGIN IMMEDIATE');
    this.#commit = database.prepare('COMMIT');
    this.#rollback = database.prepare('ROLLBACK');
  }

  /**
   * Runs `body` in one transaction, waiting for the lock in this thread (the connection's busy timeout). `body`
   * must be synchronous: nothing else may run inside the transaction.
   */
  run<T>(body: () => T): T {
    this.#begin.run();
    return this.#inTransaction(body);
  }

  /**
   * Runs `body` in one transaction once the write lock is free, waiting for it without blocking the event loop
   * (see the class). `body` must be synchronous; it runs in the same turn as the `BEGIN` that got the lock.
   */
  async runWhenFree<T>(body: () => T): Promise<T> {
    // The BEGIN that gets the lock, the body and the COMMIT run in one synchronous attempt: between a BEGIN and
    // its body nothing else of this connection may run (a writer woken with this one would meet a transaction
    // already open, "cannot start a transaction within a transaction"). Only a busy BEGIN is tried again: once
    // it holds the write lock, a WAL transaction's statements and COMMIT are never busy.
    const attempt = (): T => this.run(body);
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
    return this.#waitForLock(attempt);
  }

  /** Resolves once no writer of this connection waits for the lock (a background step lets writers go first). */
  whenNoWriterWaits(): Promise<void> {
    if (this.#waiting === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.add(resolve));
  }

  /** The lock may just have been released (a step of another connection ended): waiting writers try at once. */
  lockReleased(): void {
    for (const wake of this.#wakers) wake();
  }

  /** Tries `attempt` again after pauses (see {@link untilNotBusy}), counted as a writer waiting. */
  async #waitForLock<T>(attempt: () => T): Promise<T> {
    this.#waiting += 1;
    Atomics.store(this.waitingWriters, 0, this.#waiting);
    try {
      return await untilNotBusy(attempt, this.#busyTimeoutMs, { pause: (ms) => this.#pause(ms) });
    } finally {
      this.#waiting -= 1;
      Atomics.store(this.waitingWriters, 0, this.#waiting);
      if (this.#waiting === 0) {
        const idle = [...this.#idle];
        this.#idle.clear();
        for (const resolve of idle) resolve();
      }
    }
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wakers.add(wake);
    });
  }

  #inTransaction<T>(body: () => T): T {
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
