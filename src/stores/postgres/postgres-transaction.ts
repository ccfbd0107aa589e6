import { isConnectionFailure } from './postgres-errors.js';
import type { PostgresClient, PostgresPool } from './postgres-pool.js';

/** Marks the transaction for rollback and passes `value` through as its result. */
export type Rollback = <T>(value: T) => T;

/**
 * Runs `body` in one READ COMMITTED transaction on a connection of its own (whatever the server's default
 * isolation, so row locks, not serialization failures, decide races). Commits when `body` returns, rolls back
 * when it throws or calls `rollback`. A connection whose rollback failed is destroyed, never reused.
 */
export async function withTransaction<T>(
  pool: PostgresPool,
  body: (client: PostgresClient, rollback: Rollback) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let destroy: Error | undefined;
  let rolledBack = false;
  const rollback: Rollback = (value) => {
    rolledBack = true;
    return value;
  };
  try {
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    const result = await body(client, rollback);
    await client.query(rolledBack ? 'ROLLBACK' : 'COMMIT');
    return result;
  } catch (error) {
    // A broken connection (or one that stopped answering) is dropped without a ROLLBACK that would wait again:
    // the server rolls back a transaction whose connection is gone.
    if (isConnectionFailure(error)) destroy = error instanceof Error ? error : new Error(String(error));
    else {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        destroy = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
    }
    throw error;
  } finally {
    client.release(destroy);
  }
}
