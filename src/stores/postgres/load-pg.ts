import { ScratchpadError } from '../../core/errors.js';
import type { PostgresPool } from './postgres-pool.js';

/** Options for the pool the driver creates when the caller gives none. */
export interface PgPoolOptions {
  connectionString?: string;
  max?: number;
  /**
   * How long a statement may run (default {@link DEFAULT_QUERY_TIMEOUT_MS}, which says how it is enforced);
   * `null` for no bound at all (the pool that runs migrations).
   */
  queryTimeoutMs?: number | null;
}

/**
 * How long a statement may run before the server cancels it (`statement_timeout`: rolled back, the connection
 * kept), and, a little later ({@link answerTimeout}), how long the driver waits for an answer before it
 * fails the call and drops the connection (`pg`'s `query_timeout`): without that, a server that stops answering
 * without closing the connection (a network partition, a host that froze) leaves a call waiting until TCP gives
 * up, many minutes later. A server that is only slow answers with its cancellation first, so the caller knows
 * nothing was applied; only a server that does not answer at all leaves the outcome unknown. Every statement the
 * driver sends is bounded (batches of chunks, index steps), so a minute is far beyond a healthy one. Migrations
 * run without either bound (they rebuild indexes, which takes as long as the tables are large).
 */
const DEFAULT_QUERY_TIMEOUT_MS = 60_000;

/**
 * How long the driver waits for an answer to a statement the server cancels after `queryTimeoutMs`: a quarter
 * longer, at least a second and at most five seconds more, so the server's cancellation arrives first even from
 * a loaded server.
 */
function answerTimeout(queryTimeoutMs: number): number {
  const grace = Math.ceil(queryTimeoutMs / 4);
  return queryTimeoutMs + Math.min(MAX_ANSWER_GRACE_MS, Math.max(MIN_ANSWER_GRACE_MS, grace));
}

const MIN_ANSWER_GRACE_MS = 1_000;
const MAX_ANSWER_GRACE_MS = 5_000;

/** The longest a new connection may take to open, whatever the query timeout. */
const CONNECT_TIMEOUT_MS = 10_000;

/** `queryTimeoutMs` checked: a whole number of milliseconds, at least 1 (`CONFIG_INVALID` otherwise). */
export function queryTimeout(queryTimeoutMs: number | undefined): number {
  const timeout = queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeout) || timeout < 1) {
    throw new ScratchpadError(
      'CONFIG_INVALID',
      `queryTimeoutMs must be a whole number of milliseconds >= 1, got ${String(queryTimeoutMs)}.`,
      { hint: 'Leave it out for the default of 60 seconds.' },
    );
  }
  return timeout;
}

type PgModule = typeof import('pg');

/**
 * Creates a `pg.Pool`, importing `pg` only now: it is an optional peer dependency, and nothing else in the
 * package may load it. `importModule` exists so a test can point it at a package that is not installed.
 */
export async function createPgPool(
  options: PgPoolOptions,
  importModule: () => Promise<unknown> = () => import('pg'),
): Promise<PostgresPool> {
  let loaded: { default?: PgModule } & Partial<PgModule>;
  try {
    loaded = (await importModule()) as { default?: PgModule } & Partial<PgModule>;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new ScratchpadError(
      'STORE_UNAVAILABLE',
      'The PostgreSQL store needs the "pg" package, which is not installed.',
      {
        hint: 'npm install pg',
        cause: error,
      },
    );
  }
  const Pool = loaded.default?.Pool ?? loaded.Pool;
  if (!Pool) throw new Error('The "pg" module has no Pool export.');
  const queryTimeoutMs = options.queryTimeoutMs === null ? null : queryTimeout(options.queryTimeoutMs);
  const pool = new Pool({
    ...(options.connectionString === undefined ? {} : { connectionString: options.connectionString }),
    max: options.max ?? 10,
    // A server that takes longer to accept a connection than to answer a statement is as good as down.
    connectionTimeoutMillis: Math.min(CONNECT_TIMEOUT_MS, queryTimeoutMs ?? CONNECT_TIMEOUT_MS),
    ...(queryTimeoutMs === null
      ? {}
      : { statement_timeout: queryTimeoutMs, query_timeout: answerTimeout(queryTimeoutMs) }),
    // Idle connections to a host that went away are noticed (and dropped) instead of failing the next call.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'llm-scratchpad',
  });
  // An idle connection the server drops emits 'error' on the pool; unhandled, that event would kill the
  // process. The next query simply opens a new connection (or fails with STORE_UNAVAILABLE).
  pool.on('error', () => {});
  return pool;
}
