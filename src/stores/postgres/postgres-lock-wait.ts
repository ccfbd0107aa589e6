import { setTimeout as sleep } from 'node:timers/promises';
import type { PostgresQueryable } from './postgres-pool.js';

/**
 * SQLSTATEs of a transaction that lost a wait for a lock: `lock_timeout` fired (55P03), or the server broke a
 * deadlock with another client's transaction by cancelling this one (40P01).
 */
const LOST_LOCK_WAIT = new Set(['55P03', '40P01']);

/** True for an error of a statement that lost its wait for a lock (see {@link retryOnLockTimeout}). */
export function isLostLockWait(error: unknown): boolean {
  return LOST_LOCK_WAIT.has(String((error as { code?: unknown } | null)?.code));
}

/** The tables a lock wait is for: their schema and names (their indexes count as theirs). */
export interface LockedTables {
  schema: string;
  tables: readonly string[];
}

/**
 * How long an attempt waits for one lock: the first a fifth of a second, each next one twice as long, at most
 * a second, so other clients never queue behind an attempt for longer.
 */
const FIRST_LOCK_WAIT_MS = 200;
const LONGEST_LOCK_WAIT_MS = 1_000;

/** A connection that held a lock on one of the tables (or their indexes) when the wait ran out. */
export interface LockHolder {
  pid: number;
  application: string;
  state: string;
  /** When its transaction began (ISO 8601), when it has one. */
  since: string | undefined;
}

/** How a lock wait ended when it ran out: every attempt lost its wait for a lock. */
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
 * Runs `attempt` with a bound on each lock it waits for, and again after a pause whenever that bound fired (or a
 * deadlock cancelled it), giving up within `totalMs` (one attempt at least). `attempt` receives the `SET LOCAL`
 * that sets its bound, and must undo what it did when it loses a wait (a savepoint rolled back), so that it holds
 * nothing while it pauses. A schema change (DROP INDEX, CREATE INDEX, ALTER TABLE) waits for every transaction
 * that has read the table; while it waits, every later statement on that table, of every client, queues behind
 * it. Waiting at most {@link LONGEST_LOCK_WAIT_MS} per attempt and pausing at least as long lets the other clients
 * through between attempts. `db` is asked, when the time is up, who holds locks on `locked`.
 */
export async function retryOnLockTimeout<T>(
  db: PostgresQueryable,
  locked: LockedTables,
  totalMs: number,
  attempt: (lockTimeoutStatement: string) => Promise<T>,
): Promise<T> {
  const started = Date.now();
  for (let attempts = 0; ; attempts++) {
    // The first attempt waits its fifth of a second whatever is left; later ones no longer than what is left.
    const remaining = attempts === 0 ? FIRST_LOCK_WAIT_MS : totalMs - (Date.now() - started);
    const bound = Math.max(1, Math.min(FIRST_LOCK_WAIT_MS * 2 ** attempts, LONGEST_LOCK_WAIT_MS, remaining));
    try {
      return await attempt(`SET LOCAL lock_timeout = ${bound}`);
    } catch (error) {
      if (!isLostLockWait(error)) throw error;
      // At least as long as the wait: the tables are free for the other clients half the time or more.
      const pause = bound * (1 + Math.random());
      const waited = Date.now() - started;
      if (waited + pause >= totalMs) {
        throw new LockWaitExhausted(waited, await lockHolders(db, locked), error);
      }
      await sleep(pause);
    }
  }
}

/**
 * The other connections of this database that hold a lock on one of the tables or their indexes (at most five,
 * the oldest transactions first), or none if that cannot be read.
 */
async function lockHolders(db: PostgresQueryable, locked: LockedTables): Promise<LockHolder[]> {
  try {
    const found = await db.query(
      `WITH wanted AS (
         SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relname = ANY($2::text[])
       )
       SELECT DISTINCT a.pid, coalesce(a.application_name, '') AS application, coalesce(a.state, '') AS state,
              a.xact_start
       FROM pg_locks l
       JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.granted AND l.pid <> pg_backend_pid()
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND (l.relation IN (SELECT oid FROM wanted)
              OR l.relation IN (SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT oid FROM wanted)))
       ORDER BY a.xact_start NULLS LAST, a.pid
       LIMIT 5`,
      [locked.schema, locked.tables],
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
