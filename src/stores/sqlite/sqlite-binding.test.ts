import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteConnection, sqliteBinding } from './sqlite-binding.js';
import { resultCodeName } from './sqlite-result-codes.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-binding-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Whether this Node's `node:sqlite` has SQL functions and lenient named parameters (22.15+, 23.11+, 24). */
function builtinComplete(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major >= 24 || (major === 23 && minor >= 11) || (major === 22 && minor >= 15);
}

function failure(action: () => unknown): Error & { code?: unknown } {
  try {
    action();
  } catch (error) {
    return error as Error & { code?: unknown };
  }
  throw new Error('expected a failure');
}

describe('the SQLite binding', () => {
  it("is node:sqlite where this Node's is complete, @photostructure/sqlite elsewhere", () => {
    expect(sqliteBinding()).toBe(builtinComplete() ? 'node:sqlite' : '@photostructure/sqlite');
  });

  it('gives BLOBs as Buffers, binds undefined as NULL and ignores unknown named parameters', () => {
    const database = openSqliteConnection(join(root, 'shape.db'));
    database.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB, note TEXT)');
    database.prepare('INSERT INTO t (data, note) VALUES (:data, :note)').run({
      data: new Uint8Array([1, 2, 3]),
      note: undefined,
      extra: 'not in the statement',
    });
    database.prepare('INSERT INTO t (data, note) VALUES (?, ?)').run(Buffer.from('xy'), undefined);
    const rows = database.prepare('SELECT data, note FROM t ORDER BY id').all() as Array<{
      data: unknown;
      note: unknown;
    }>;
    expect(rows.map((row) => Buffer.isBuffer(row.data))).toEqual([true, true]);
    expect(rows.map((row) => [...(row.data as Buffer)])).toEqual([
      [1, 2, 3],
      [120, 121],
    ]);
    expect(rows.map((row) => row.note)).toEqual([null, null]);
    database.close();
  });

  it("keeps a SQL function's arity and hands it BLOBs as Buffers", () => {
    const database = openSqliteConnection(':memory:');
    database.function('blob_length', {}, (value: unknown) => (Buffer.isBuffer(value) ? value.length : -1));
    expect(database.prepare("SELECT blob_length(x'0102') AS n").get()).toEqual({ n: 2 });
    expect(failure(() => database.prepare('SELECT blob_length(1, 2)')).message).toMatch(
      /wrong number of arguments/,
    );
    database.close();
  });

  it("names a failure by SQLite's result code", () => {
    const database = openSqliteConnection(':memory:');
    database.exec('CREATE TABLE u (name TEXT PRIMARY KEY)');
    database.prepare("INSERT INTO u VALUES ('a')").run();
    expect(failure(() => database.prepare("INSERT INTO u VALUES ('a')").run()).code).toBe(
      'SQLITE_CONSTRAINT_PRIMARYKEY',
    );
    expect(failure(() => database.exec('SELEC 1')).code).toBe('SQLITE_ERROR');
    database.close();
    expect(failure(() => openSqliteConnection(join(root, 'missing.db'), { mustExist: true })).code).toBe(
      'SQLITE_CANTOPEN',
    );
    expect(failure(() => openSqliteConnection(join(root, 'no', 'such', 'dir.db'))).code).toBe(
      'SQLITE_CANTOPEN',
    );
  });

  it('maps primary and extended result codes to their names', () => {
    expect(resultCodeName(5)).toBe('SQLITE_BUSY');
    expect(resultCodeName(261)).toBe('SQLITE_BUSY_RECOVERY');
    expect(resultCodeName(2067)).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(resultCodeName(778)).toBe('SQLITE_IOERR_WRITE');
    expect(resultCodeName(26)).toBe('SQLITE_NOTADB');
    expect(resultCodeName(13 | (40 << 8))).toBe('SQLITE_FULL');
    expect(resultCodeName(99)).toBe('SQLITE_UNKNOWN_99');
  });
});
