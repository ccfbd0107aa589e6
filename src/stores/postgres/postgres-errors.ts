import { userInfo } from 'node:os';
import { ScratchpadError } from '../../core/errors.js';

/** The server and database a driver talks to, as named in error messages (never the password). */
export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

const CONFIGURE_HINT =
  'Point Scratchpad at a running server with --store postgres://user@host:port/db (or the SCRATCHPAD_STORE environment variable).';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOENT',
]);

/**
 * Where a connection string (with libpq's environment defaults, as `pg` applies them) points. Unparsable
 * strings still give a target, so an error message can always name something.
 */
export function describeTarget(
  connectionString: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): PostgresTarget {
  const defaults = {
    host: env.PGHOST || 'localhost',
    port: Number(env.PGPORT) || 5432,
    user: env.PGUSER || currentUser(),
    database: env.PGDATABASE || '',
  };
  let target = { ...defaults };
  if (connectionString) {
    try {
      const url = new URL(connectionString);
      target = {
        host: url.searchParams.get('host') || decodeURIComponent(url.hostname) || defaults.host,
        port: Number(url.port) || Number(url.searchParams.get('port')) || defaults.port,
        user: decodeURIComponent(url.username) || url.searchParams.get('user') || defaults.user,
        database: decodeURIComponent(url.pathname.replace(/^\//, '')) || defaults.database,
      };
    } catch {
      // Not a URL (pg also accepts a bare socket directory); name the defaults.
    }
  }
  return { ...target, database: target.database || target.user };
}

/** `host:port/database`, the way the store URL names it. */
export function formatTarget(target: PostgresTarget): string {
  return `${target.host}:${target.port}/${target.database}`;
}

/**
 * Turns a failure to reach, log in to, or find the database into `STORE_UNAVAILABLE` naming the target and how
 * to configure another; returns anything else unchanged.
 */
export function toStoreError(error: unknown, target: PostgresTarget): unknown {
  if (ScratchpadError.isInstance(error) || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const sqlState = typeof code === 'string' ? code : '';
  const where = formatTarget(target);
  const details = {
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    code: sqlState || undefined,
  };
  if (sqlState === '3D000') {
    return new ScratchpadError(
      'STORE_UNAVAILABLE',
      `PostgreSQL at ${target.host}:${target.port} has no database "${target.database}" (${where}).`,
      {
        hint: `Create it (createdb ${target.database}) or name an existing database. ${CONFIGURE_HINT}`,
        details,
        cause: error,
      },
    );
  }
  if (sqlState.startsWith('28') || (sqlState === '' && /SASL|password/i.test(error.message))) {
    return new ScratchpadError(
      'STORE_UNAVAILABLE',
      `PostgreSQL at ${where} refused user "${target.user}": ${error.message}.`,
      {
        hint: `Give a user the server accepts, with its password if it needs one: --store postgres://user:password@host:port/db (or SCRATCHPAD_STORE, or PGPASSWORD).`,
        details,
        cause: error,
      },
    );
  }
  if (sqlState === '42501') {
    return new ScratchpadError(
      'STORE_UNAVAILABLE',
      `User "${target.user}" may not create or use the Scratchpad tables in ${where}: ${error.message}.`,
      {
        hint: `Grant the user CREATE on the database (or on the schema), or connect as a user who has it. ${CONFIGURE_HINT}`,
        details,
        cause: error,
      },
    );
  }
  if (isQueryTimeout(error)) {
    return new ScratchpadError(
      'STORE_UNAVAILABLE',
      `PostgreSQL at ${where} did not answer within the query timeout; its connection was dropped, and whether the statement took effect is unknown.`,
      {
        hint: 'Check that the server runs and that the network to it works; read the entry before writing it again (an append may have been applied).',
        details,
        cause: error,
      },
    );
  }
  if (sqlState === STATEMENT_TIMEOUT) {
    return new ScratchpadError(
      'STORE_UNAVAILABLE',
      `PostgreSQL at ${where} cancelled a statement that ran longer than the query timeout; nothing it did was kept.`,
      {
        hint: 'The server is overloaded or a lock is held for long (a schema migration, a long transaction of another client). Try again; a larger queryTimeoutMs waits longer.',
        details,
        cause: error,
      },
    );
  }
  if (isConnectionFailure(error, sqlState)) {
    return new ScratchpadError(
      'STORE_UNAVAILABLE',
      `Cannot reach PostgreSQL at ${where}: ${error.message}.`,
      {
        hint: `Start the server, or check the host and port. ${CONFIGURE_HINT}`,
        details,
        cause: error,
      },
    );
  }
  return error;
}

/** True when the connection itself is broken, so it must not go back to the pool. */
export function isConnectionFailure(
  error: unknown,
  sqlState = String((error as { code?: unknown } | null)?.code ?? ''),
): boolean {
  if (NETWORK_CODES.has(sqlState)) return true;
  // 08: connection exception; 57P01-03: server shutting down or starting; 53300: too many connections.
  if (sqlState.startsWith('08') || /^57P0[1-3]$/.test(sqlState) || sqlState === '53300') return true;
  const message = error instanceof Error ? error.message : '';
  return (
    isQueryTimeout(error) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(
      message,
    )
  );
}

/** SQLSTATE of a statement the server cancelled: its `statement_timeout` (or a cancel request) fired. */
const STATEMENT_TIMEOUT = '57014';

/** True for `pg`'s error when a statement went unanswered for its `query_timeout`. */
function isQueryTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'postgres';
  }
}
