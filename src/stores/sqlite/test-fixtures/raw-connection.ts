import { openSqliteConnection } from '../sqlite-binding.js';
import type { SqliteDatabase, SqliteStatement } from '../sqlite-database.js';

/** A connection of the binding the store uses, with a `pragma` helper for tests that look inside a store file. */
export interface RawConnection extends SqliteDatabase {
  /** Runs `PRAGMA <source>`: every row, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** `body` wrapped in BEGIN … COMMIT (ROLLBACK when it throws). */
  transaction<Result>(body: () => Result): () => Result;
  /** False once closed. */
  readonly open: boolean;
}

/**
 * Opens `path` outside the store, as another connection of this process would (the same SQLite library: two
 * libraries in one process would not see each other's POSIX locks).
 */
export function openRawConnection(
  path: string,
  options: { readOnly?: boolean; busyTimeoutMs?: number } = {},
): RawConnection {
  const connection = openSqliteConnection(path, { readOnly: options.readOnly });
  if (options.busyTimeoutMs !== undefined) connection.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs}`);
  let open = true;
  const close = connection.close.bind(connection);
  return Object.assign(connection, {
    get open(): boolean {
      return open;
    },
    close(): void {
      open = false;
      close();
    },
    transaction<Result>(body: () => Result): () => Result {
      return () => {
        connection.exec('BEGIN');
        try {
          const result = body();
          connection.exec('COMMIT');
          return result;
        } catch (error) {
          connection.exec('ROLLBACK');
          throw error;
        }
      };
    },
    pragma(source: string, { simple = false }: { simple?: boolean } = {}): unknown {
      const rows = connection.prepare(`PRAGMA ${source}`).all() as Array<Record<string, unknown>>;
      if (!simple) return rows;
      const first = rows[0];
      return first === undefined ? undefined : Object.values(first)[0];
    },
  });
}

/** `connection` with every statement it runs (`exec`, and a prepared statement's `run`, `get`, `all`) told to `trace`. */
export function tracedConnection(connection: SqliteDatabase, trace: (sql: string) => void): SqliteDatabase {
  return {
    name: connection.name,
    prepare(source: string): SqliteStatement {
      const statement = connection.prepare(source);
      const traced =
        <Method extends 'run' | 'get' | 'all'>(method: Method) =>
        (...parameters: unknown[]): ReturnType<SqliteStatement[Method]> => {
          trace(source);
          return statement[method](...parameters) as ReturnType<SqliteStatement[Method]>;
        };
      return { run: traced('run'), get: traced('get'), all: traced('all') };
    },
    exec(source: string): unknown {
      trace(source);
      return connection.exec(source);
    },
    function: (name, options, implementation) => connection.function(name, options, implementation),
    close: () => connection.close(),
  };
}
