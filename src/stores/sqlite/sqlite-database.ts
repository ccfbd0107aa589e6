import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ScratchpadError } from '../../core/errors.js';
import { isBusy } from './busy-pauses.js';
import { openSqliteConnection } from './sqlite-binding.js';
import type { SqliteDatabase } from './sqlite-connection.js';
import { toStoreError } from './sqlite-errors.js';

export type { SqliteDatabase, SqliteRunResult, SqliteStatement } from './sqlite-connection.js';

/**
 * Page size for new files (decision 006). Every commit writes each page it changed to the WAL, and a checkpoint
 * writes it again into the database: with the chunk bytes of large contents in side files, the database mostly
 * holds small rows, and 4 KiB pages cut the bytes a small write costs about fourfold (16 KiB pages made reading a
 * 256 KiB inline chunk faster, which matters less now that only the first MiB of a content is inline). Existing
 * files keep their page size.
 */
const PAGE_SIZE = 4 * 1024;

/** Opens (creating it and its parent directories if needed) the database file at `path`. */
export function openDatabaseFile(path: string): SqliteDatabase {
  if (path !== ':memory:' && path !== '') {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      throw new ScratchpadError(
        'STORE_UNAVAILABLE',
        `Cannot create the directory of the store ${path}: ${(error as Error).message}.`,
        {
          hint: 'Check that this user can create and enter every directory of the path, and that no regular file is in the way.',
          details: { path },
          cause: error,
        },
      );
    }
  }
  try {
    return openSqliteConnection(path);
  } catch (error) {
    throw toStoreError(error, path);
  }
}

/**
 * Sets the connection's pragmas.
 *
 * - `journal_mode = WAL`: readers never block the writer and the writer never blocks readers, across processes.
 * - `synchronous = NORMAL`: the durability choice. In WAL mode a commit is atomic and survives a crash of the
 *   process at any point; only an OS crash or power loss can roll back the last commits (never corrupt the
 *   file), because the WAL is synced at checkpoints rather than at every commit. A scratchpad holds working data
 *   that can be regenerated, so we trade that window for writes that do not wait for the disk; `FULL` would
 *   fsync every commit.
 * - `busy_timeout`: how long a writer waits for another process's write lock before `STORE_UNAVAILABLE`.
 * - `foreign_keys = ON`: deleting a content row removes its chunks and their bytes.
 * - `journal_size_limit`: the WAL file shrinks back after a big write is checkpointed.
 */
export function configureDatabase(database: SqliteDatabase, busyTimeoutMs: number): void {
  database.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  database.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  // Switching a new file to WAL needs an exclusive lock, and SQLite reports a competing process (several opening
  // a new store at once) as SQLITE_BUSY at once, without the busy handler: wait for it ourselves.
  retryWhileBusy(() => database.exec('PRAGMA journal_mode = WAL'), busyTimeoutMs);
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA foreign_keys = ON');
  database.exec(`PRAGMA journal_size_limit = ${64 * 1024 * 1024}`);
}

/** Runs `step`, retrying it every few milliseconds while it fails with SQLITE_BUSY, for up to `timeoutMs`. */
function retryWhileBusy(step: () => unknown, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      step();
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 5);
    }
  }
}
