import { ScratchpadError } from '../../core/errors.js';
import type { PostgresPool } from './postgres-pool.js';

/** Options for the pool the driver creates when the caller gives none. */
export interface PgPoolOptions {
  connectionString?: string;
  max?: number;
  /** How long a statement may go unanswered (default {@link DEFAULT_QUERY_TIMEOUT_MS}). */
  queryTimeoutMs?: number;
}

/**
 * How long a statement may go unanswered before it fails (`STORE_UNAVAILABLE`) and its connection is dropped:
 * without it, a server that stops answering without closing the connection (a network partition, a host that
 * froze) leaves a call waiting until TCP gives up, many minutes later. Every statement the driver sends is
 * bounded (batches of chunks, index steps), so a minute is far beyond a healthy one.
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 60_000;

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
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const pool = new Pool({
    ...(options.connectionString === undefined ? {} : { connectionString: options.connectionString }),
    max: options.max ?? 10,
    // A server that takes longer to accept a connection than to answer a statement is as good as down.
    connectionTimeoutMillis: Math.min(10_000, queryTimeoutMs),
    query_timeout: queryTimeoutMs,
    // Idle connections to a host that went away are noticed (and dropped) instead of failing the next call.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'agent-scratchpad',
  });
  // An idle connection the server drops emits 'error' on the pool; unhandled, that event would kill the
  // process. The next query simply opens a new connection (or fails with STORE_UNAVAILABLE).
  pool.on('error', () => {});
  return pool;
}
