import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScratchpadError, type ScratchpadErrorCode } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createSqliteDriver } from './index.js';
import { toStoreError } from './sqlite-errors.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-errors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const directory = (): string => {
  const path = join(root, `case-${++counter}`);
  mkdirSync(path);
  return path;
};

function failure(action: () => unknown): ScratchpadError {
  try {
    action();
  } catch (error) {
    if (ScratchpadError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ScratchpadError, but it succeeded');
}

async function asyncFailure(
  action: () => Promise<unknown>,
  code: ScratchpadErrorCode,
): Promise<ScratchpadError> {
  const error = await action().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (ScratchpadError.hasCode(error, code)) return error;
  throw new Error(`expected ${code}, got ${String(error)}`);
}

describe('SQLite store errors', () => {
  it('a directory is STORE_UNAVAILABLE with the path and a hint', () => {
    const path = directory();
    const error = failure(() => createSqliteDriver({ path }));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain(path);
    expect(error.hint).toMatch(/not a directory/);
    expect(error.details).toMatchObject({ path, sqliteCode: 'SQLITE_CANTOPEN' });
  });

  it('a path under a regular file is STORE_UNAVAILABLE', () => {
    const file = join(directory(), 'plain-file');
    writeFileSync(file, 'x');
    const error = failure(() => createSqliteDriver({ path: join(file, 'store.db') }));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain(file);
  });

  it('a file that is not a database is STORE_UNAVAILABLE, and is left untouched', () => {
    const path = join(directory(), 'notes.txt');
    const text = 'these are my notes, not a database\n'.repeat(200);
    writeFileSync(path, text);
    const error = failure(() => createSqliteDriver({ path }));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain(`${path} is not a SQLite database`);
    expect(error.hint).toContain('new path');
    expect(statSync(path).size).toBe(text.length);
  });

  it('a SQLite database of another application is refused, not adopted', () => {
    const path = join(directory(), 'app.db');
    const other = openRawConnection(path);
    other.exec("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ada')");
    other.close();
    const error = failure(() => createSqliteDriver({ path }));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain('not a scratchpad store');
    const again = openRawConnection(path);
    expect(again.prepare("SELECT count(*) AS count FROM sqlite_schema WHERE type = 'table'").get()).toEqual({
      count: 1,
    });
    again.close();
  });

  it('a store written by a newer version is refused with a hint to upgrade', async () => {
    const path = join(directory(), 'store.db');
    await createSqliteDriver({ path }).close();
    const raw = openRawConnection(path);
    raw.pragma('user_version = 99');
    raw.close();
    const error = failure(() => createSqliteDriver({ path }));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain('schema version 99');
    expect(error.hint).toContain('Upgrade');
  });

  it('a write lock held past the busy timeout is STORE_UNAVAILABLE "database is locked", and clears', async () => {
    const path = join(directory(), 'store.db');
    const pad = createScratchpad({ driver: createSqliteDriver({ path, busyTimeoutMs: 50 }) });
    await pad.write('s1', 'before', 'written before the lock');
    const holder = openRawConnection(path);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const error = await asyncFailure(() => pad.write('s1', 'during', 'blocked'), 'STORE_UNAVAILABLE');
      expect(error.message).toContain('database is locked');
      expect(error.message).toContain(path);
      expect(error.message).toContain('50 ms');
      expect(error.hint).toMatch(/Retry/);
      // Readers are not blocked by a writer in WAL mode.
      expect((await pad.read('s1', 'before')).content).toBe('written before the lock');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    await pad.write('s1', 'after', 'works again');
    expect((await pad.list('s1')).entries.map((entry) => entry.name)).toEqual(['after', 'before']);
    await pad.close();
  });

  it('a corrupt file is STORE_CORRUPT with a recovery hint', async () => {
    const path = join(directory(), 'store.db');
    const pad = createScratchpad({ driver: createSqliteDriver({ path }), chunkSize: 1024 });
    for (let index = 0; index < 20; index++)
      await pad.write('s1', `entry-${index}`, `content ${index} `.repeat(2000));
    await pad.close();
    // Keep page 1 (header and schema), overwrite every other page with garbage.
    const pageSize = 4096;
    const size = statSync(path).size;
    const descriptor = openSync(path, 'r+');
    const garbage = Buffer.alloc(pageSize, 0xa5);
    for (let offset = pageSize; offset < size; offset += pageSize)
      writeSync(descriptor, garbage, 0, pageSize, offset);
    closeSync(descriptor);
    let error: ScratchpadError;
    try {
      const reopened = createScratchpad({ driver: createSqliteDriver({ path }) });
      error = await asyncFailure(() => reopened.list('s1'), 'STORE_CORRUPT');
      await reopened.close();
    } catch (caught) {
      // Depending on where the damage lands, opening already fails.
      if (!ScratchpadError.hasCode(caught, 'STORE_CORRUPT')) throw caught;
      error = caught;
    }
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/malformed|constructor failed/);
    expect(error.hint).toContain('.recover');
  });

  it('no permission to open the file is STORE_UNAVAILABLE (as a user without root)', async () => {
    if (process.getuid?.() === 0) return; // root ignores file modes; sqlite-processes.test.ts covers it as another user
    const path = join(directory(), 'store.db');
    await createSqliteDriver({ path }).close();
    const { chmodSync } = await import('node:fs');
    chmodSync(path, 0o000);
    const error = failure(() => createSqliteDriver({ path }));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain(path);
  });

  it('maps a full disk, I/O errors and unknown failures', () => {
    const of = (code: string): unknown => toStoreError(Object.assign(new Error('boom'), { code }), '/x.db');
    expect(of('SQLITE_FULL')).toMatchObject({ code: 'STORE_FULL' });
    expect(of('SQLITE_IOERR_WRITE')).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(of('SQLITE_READONLY_DBMOVED')).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(of('SQLITE_CORRUPT_INDEX')).toMatchObject({ code: 'STORE_CORRUPT' });
    const bug = Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(toStoreError(bug, '/x.db')).toBe(bug);
  });
});
