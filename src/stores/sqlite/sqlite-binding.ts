import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ScratchpadError } from '../../core/errors.js';
import type { SqliteDatabase, SqliteRunResult, SqliteStatement } from './sqlite-connection.js';
import { resultCodeName } from './sqlite-result-codes.js';

/**
 * Where the SQLite connections the package opens come from (decision 014): Node's own `node:sqlite` when it has
 * what the store needs (SQL functions and lenient named parameters: Node 22.15+, 23.11+, 24), otherwise
 * `@photostructure/sqlite`, the same `DatabaseSync` API as a Node-API module with prebuilt binaries in its npm
 * package (Node 20). Neither compiles anything at install time.
 */
export type SqliteBindingName = 'node:sqlite' | '@photostructure/sqlite';

/** The part of `DatabaseSync` (node:sqlite and @photostructure/sqlite alike) used here. */
interface RawDatabase extends Pick<SqliteDatabase, 'exec' | 'function' | 'close'> {
  prepare(source: string): RawStatement;
}

interface RawStatement extends SqliteStatement {
  setAllowUnknownNamedParameters?(enabled: boolean): void;
}

interface RawModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => RawDatabase;
}

interface Binding {
  name: SqliteBindingName;
  module: RawModule;
}

let binding: Binding | undefined;

/** The binding this process uses (loaded on first use). */
export function sqliteBinding(): SqliteBindingName {
  return loadBinding().name;
}

function loadBinding(): Binding {
  binding ??= loadBuiltin() ?? loadPackage();
  return binding;
}

/** `node:sqlite`, when this Node has it complete; its ExperimentalWarning is not printed. */
function loadBuiltin(): Binding | undefined {
  const getBuiltinModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltinModule !== 'function') return undefined;
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite/i.test(text)) return;
    (emitWarning as (...parameters: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  let module: RawModule | undefined;
  try {
    module = getBuiltinModule('node:sqlite') as RawModule | undefined;
  } catch {
    module = undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
  const statement = (module as { StatementSync?: { prototype?: RawStatement } } | undefined)?.StatementSync;
  const complete =
    module !== undefined &&
    typeof (module.DatabaseSync?.prototype as Partial<RawDatabase> | undefined)?.function === 'function' &&
    typeof statement?.prototype?.setAllowUnknownNamedParameters === 'function';
  return complete ? { name: 'node:sqlite', module: module as RawModule } : undefined;
}

/** `@photostructure/sqlite`, an optional dependency for Node versions without a complete `node:sqlite`. */
function loadPackage(): Binding {
  try {
    const module = createRequire(import.meta.url)('@photostructure/sqlite') as RawModule;
    return { name: '@photostructure/sqlite', module };
  } catch (error) {
    throw new ScratchpadError(
      'STORE_UNAVAILABLE',
      `SQLite is not available in Node ${process.versions.node}: node:sqlite is missing or incomplete here, and the optional package @photostructure/sqlite did not load (${(error as Error).message}).`,
      {
        hint: 'Use Node 22.15+ or 24+ (node:sqlite), or install the optional dependency: npm install @photostructure/sqlite@1.2.1. Or use another store (--store fs:DIR, or PostgreSQL).',
        cause: error,
      },
    );
  }
}

/** Options for {@link openSqliteConnection}. */
export interface OpenConnectionOptions {
  readOnly?: boolean;
  /** Fail (SQLITE_CANTOPEN) rather than create the file. */
  mustExist?: boolean;
}

/**
 * Opens a connection to the database file at `path` (`:memory:` for a private in-memory database) through the
 * binding this process uses. The connection's busy timeout starts at 5 s. Errors carry SQLite's result code name
 * as `code` (`SQLITE_CANTOPEN`, `SQLITE_BUSY`, …), as `toStoreError` reads it.
 */
export function openSqliteConnection(path: string, options: OpenConnectionOptions = {}): SqliteDatabase {
  const { module } = loadBinding();
  if (options.mustExist && path !== ':memory:' && !existsSync(path)) {
    throw Object.assign(new Error(`unable to open database file: ${path} does not exist`), {
      code: 'SQLITE_CANTOPEN',
    });
  }
  const raw = withCodes(() => new module.DatabaseSync(path, { readOnly: options.readOnly === true }));
  const connection = new Connection(path, raw, options.readOnly === true);
  connection.exec('PRAGMA busy_timeout = 5000');
  return connection;
}

/** A `DatabaseSync` in the shape the store uses: blobs as Buffers, errors with result code names. */
class Connection implements SqliteDatabase {
  readonly name: string;
  readonly #raw: RawDatabase;
  readonly #readOnly: boolean;
  #open = true;

  constructor(name: string, raw: RawDatabase, readOnly: boolean) {
    this.name = name;
    this.#raw = raw;
    this.#readOnly = readOnly;
  }

  prepare(source: string): SqliteStatement {
    const statement = withCodes(() => this.#raw.prepare(source));
    statement.setAllowUnknownNamedParameters?.(true);
    return new Statement(statement);
  }

  exec(source: string): void {
    withCodes(() => this.#raw.exec(source));
  }

  function(
    name: string,
    options: { deterministic?: boolean; varargs?: boolean },
    implementation: (...parameters: unknown[]) => unknown,
  ): void {
    const wrapped = (...parameters: unknown[]) => implementation(...parameters.map(toBuffer));
    // The SQL function's arity is the implementation's `length`.
    Object.defineProperty(wrapped, 'length', { value: implementation.length });
    withCodes(() => this.#raw.function(name, options, wrapped));
  }

  /**
   * Closes the connection. A binding closes a connection whose prepared statements are still referenced only
   * once they are garbage-collected (sqlite3_close_v2), so SQLite's checkpoint at the last close would come late:
   * the WAL is copied back and truncated here, without waiting for any other connection (a busy one leaves the
   * rest to the next checkpoint).
   */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    if (!this.#readOnly && this.name !== ':memory:') {
      try {
        this.#raw.exec('PRAGMA busy_timeout = 0');
        this.#raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      } catch {
        // Not in WAL mode, busy, or read-only file: nothing to copy back now.
      }
    }
    withCodes(() => this.#raw.close());
  }
}

class Statement implements SqliteStatement {
  readonly #raw: RawStatement;

  constructor(raw: RawStatement) {
    this.#raw = raw;
  }

  run(...parameters: unknown[]): SqliteRunResult {
    return withCodes(() => this.#raw.run(...bindable(parameters)));
  }

  get(...parameters: unknown[]): unknown {
    return rowWithBuffers(withCodes(() => this.#raw.get(...bindable(parameters))));
  }

  all(...parameters: unknown[]): unknown[] {
    const rows = withCodes(() => this.#raw.all(...bindable(parameters)));
    for (let index = 0; index < rows.length; index++) rows[index] = rowWithBuffers(rows[index]);
    return rows;
  }
}

/** Parameters as the bindings take them: `undefined` binds NULL (in a named-parameter object too). */
function bindable(parameters: unknown[]): unknown[] {
  for (let index = 0; index < parameters.length; index++) {
    const parameter = parameters[index];
    if (parameter === undefined) parameters[index] = null;
    else if (isNamedParameters(parameter) && Object.values(parameter).includes(undefined)) {
      parameters[index] = Object.fromEntries(
        Object.entries(parameter).map(([key, value]) => [key, value === undefined ? null : value]),
      );
    }
  }
  return parameters;
}

function isNamedParameters(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}

/** A row whose BLOB columns are Buffers (the bindings give Uint8Arrays). */
function rowWithBuffers(row: unknown): unknown {
  if (typeof row !== 'object' || row === null) return row;
  const record = row as Record<string, unknown>;
  for (const key in record) {
    const value = record[key];
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) record[key] = toBuffer(value);
  }
  return row;
}

function toBuffer(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : value;
}

/** Runs a binding call; a SQLite failure gets its result code's name as `code` (the bindings give a number). */
function withCodes<Result>(call: () => Result): Result {
  try {
    return call();
  } catch (error) {
    const errcode = (error as { errcode?: unknown } | null)?.errcode;
    if (typeof errcode === 'number' && error instanceof Error) {
      Object.defineProperty(error, 'code', {
        value: resultCodeName(errcode),
        configurable: true,
        writable: true,
      });
    }
    throw error;
  }
}
