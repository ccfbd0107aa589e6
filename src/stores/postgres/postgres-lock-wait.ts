import { setTimeout as sleep } from 'node:timers/promises';
import type { PostgresPool } from './postgres-pool.js';

/** SQLSTATE of a statement that gave up waiting for a lock: its `lock_timeout` fired. */
const LOCK_NOT_AVAILABLE = '55P03';

/** The longest a single attempt waits for one lock, so other clients never queue behind it for longer. */
const ATTEMPT_LOCK_WAIT_MS = 1_000;

/** Pause between two attempts, growing from the first to the last. */
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 2_000;

/** A connection that held a lock on one of the schema's tables when the wait ran out. */
export interface LockHolder {
  pid: number;
  application: string;
  state: string;
  /** When its transaction began (ISO 8601), when it has one. */
  since: string | undefined;
}

/** How a lock wait ended when it ran out: every attempt timed out on a lock. */
export class LockWaitExhausted extends Error {
  constructor(
    readonly waitedMs: number,
    readonly holders: readonly LockHolder[],
    override readonly cause: unknown,
  ) {
    super(`Still waiting for a lock after ${waitedMs} ms.`);
  }
}

/**
 * Runs `attempt` (one transaction) with a bound on each lock it waits for, and again after a pause whenever
 * that bound fired, until `totalMs` have passed. A schema change (DROP INDEX, CREATE INDEX, ALTER TABLE) waits
 * for every transaction that has read the table; while it waits, every later statement on that table, of every
 * client, queues behind it. Waiting at most {@link ATTEMPT_LOCK_WAIT_MS} per attempt, and rolling back what the
 * attempt had locked, lets the other clients through between attempts. `attempt` receives the `SET LOCAL` that
 * sets its bound, to run once it has taken the locks it may wait for without one.
 */
export async function retryOnLockTimeout<T>(
  pool: PostgresPool,
  schema: string,
  totalMs: number,
  attempt: (lockTimeoutStatement: string) => Promise<T>,
): Promise<T> {
  const started = Date.now();
  for (let attempts = 0; ; attempts++) {
    const remaining = totalMs - (Date.now() - started);
    const bound = Math.max(1, Math.min(ATTEMPT_LOCK_WAIT_MS, remaining));
    try {
      return await attempt(`SET LOCAL lock_timeout = ${bound}`);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== LOCK_NOT_AVAILABLE) throw error;
      const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** attempts);
      const waited = Date.now() - started;
      if (waited + pause >= totalMs) {
        throw new LockWaitExhausted(waited, await lockHolders(pool, schema), error);
      }
      await sleep(pause * (0.5 + Math.random() / 2));
    }
  }
}

/** The other connections that hold a lock on a table or index of `schema` (at most five), or none if unknown. */
async function lockHolders(pool: PostgresPool, schema: string): Promise<LockHolder[]> {
  try {
    const found = await pool.query(
      `SELECT DISTINCT a.pid, coalesce(a.application_name, '') AS application, coalesce(a.state, '') AS state,
              a.xact_start
       FROM pg_locks l
       JOIN pg_class c ON c.oid = l.relation
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE n.nspname = $1 AND l.granted AND l.pid <> pg_backend_pid()
       ORDER BY a.xact_start NULLS LAST, a.pid
       LIMIT 5`,
      [schema],
    );
    return found.rows.map((row) => ({
      pid: Number(row.pid),
      application: String(row.application),
      state: String(row.state),
      since: row.xact_start instanceof Date ? row.xact_start.toISOString() : undefined,
    }));
  } catch {
    return [];
  }
}

/** One line per holder, for an error message: `pid 123 ("psql", idle in transaction since …)`. */
export function describeLockHolders(holders: readonly LockHolder[]): string {
  return holders
    .map((holder) => {
      const application = holder.application === '' ? '' : `"${holder.application}", `;
      const since = holder.since === undefined ? '' : ` since ${holder.since}`;
      return `pid ${holder.pid} (${application}${holder.state || 'state unknown'}${since})`;
    })
    .join(', ');
}
