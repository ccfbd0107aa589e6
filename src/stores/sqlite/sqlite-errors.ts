import { ScratchpadError } from '../../core/errors.js';

const PERMISSIONS_HINT =
  'Check that the path is a regular file (not a directory) that this user can read and write, in a directory it ' +
  'can write: SQLite creates -wal and -shm files next to the database.';

/**
 * Turns a SQLite failure into the `ScratchpadError` a caller can act on: a file that cannot be opened or is not
 * a database and a lock held past the busy timeout are `STORE_UNAVAILABLE`, a damaged file is `STORE_CORRUPT`,
 * a full disk is `STORE_FULL`. Anything else (a bug, a constraint we did not expect) is returned unchanged.
 */
export function toStoreError(error: unknown, path: string, busyTimeoutMs?: number): unknown {
  if (ScratchpadError.isInstance(error)) return error;
  const code = sqliteCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  const details = { path, sqliteCode: code ?? null };
  const options = { details, cause: error };
  if (code === undefined) {
    if (error instanceof TypeError && /directory does not exist/.test(reason)) {
      return new ScratchpadError(
        'STORE_UNAVAILABLE',
        `Cannot open the store ${path}: its directory does not exist.`,
        {
          ...options,
          hint: 'Create the directory, or choose a path in a directory that exists.',
        },
      );
    }
    return error;
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    const waited = busyTimeoutMs === undefined ? '' : ` for ${busyTimeoutMs} ms`;
    return new ScratchpadError(
      'STORE_UNAVAILABLE',
      `The store ${path} is busy: database is locked (another connection held the write lock${waited}).`,
      {
        ...options,
        hint: 'Retry in a moment. If it persists, look for a stuck process holding the file open (fuser or lsof on the path), or raise busyTimeoutMs.',
      },
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH') {
    return new ScratchpadError('STORE_UNAVAILABLE', `Cannot open the store ${path}: ${reason}.`, {
      ...options,
      hint: PERMISSIONS_HINT,
    });
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new ScratchpadError('STORE_UNAVAILABLE', `The store ${path} is read-only: ${reason}.`, {
      ...options,
      hint: PERMISSIONS_HINT,
    });
  }
  if (code === 'SQLITE_NOTADB') {
    return new ScratchpadError('STORE_UNAVAILABLE', `${path} is not a SQLite database (${reason}).`, {
      ...options,
      hint: 'Point the store at a scratchpad database file, or at a new path to create one.',
    });
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new ScratchpadError('STORE_CORRUPT', `The store ${path} is corrupt: ${reason}.`, {
      ...options,
      hint: `Restore it from a backup, or recover what is readable with: sqlite3 ${path} .recover | sqlite3 recovered.db; then point the store at the recovered file.`,
    });
  }
  if (code === 'SQLITE_FULL') {
    return new ScratchpadError('STORE_FULL', `The disk holding the store ${path} is full.`, {
      ...options,
      hint: 'Free disk space, delete entries you no longer need, or run gc to remove expired ones.',
    });
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new ScratchpadError('STORE_UNAVAILABLE', `I/O error on the store ${path}: ${reason}.`, {
      ...options,
      hint: 'Check the disk and the file system holding the store (network file systems do not support WAL locking).',
    });
  }
  return error;
}

/** The SQLite result code name of a binding error (`SQLITE_BUSY`, `SQLITE_CORRUPT_INDEX`, …). */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * Turns a failed file-system call on a side file (see `blob-directory.ts`) into the `ScratchpadError` a caller
 * can act on: a full disk is `STORE_FULL`, a permission or read-only problem or an I/O error `STORE_UNAVAILABLE`.
 * Anything else (a bug) is returned unchanged.
 */
export function fileError(error: unknown, path: string, action: string): unknown {
  if (ScratchpadError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const options = { details: { path, code: typeof code === 'string' ? code : null }, cause: error };
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new ScratchpadError('STORE_FULL', `Cannot ${action} ${path}: no space left on the device.`, {
        ...options,
        hint: 'Free disk space, delete entries you no longer need, or run gc to remove expired ones.',
      });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ScratchpadError(
        'STORE_UNAVAILABLE',
        `Cannot ${action} ${path}: ${(error as Error).message}.`,
        {
          ...options,
          hint: `${PERMISSIONS_HINT} Large contents live in the side-file directory next to the database (<database>.blobs), which needs the same permissions.`,
        },
      );
    case 'EIO':
    case 'EMFILE':
    case 'ENFILE':
      return new ScratchpadError(
        'STORE_UNAVAILABLE',
        `Cannot ${action} ${path}: ${(error as Error).message}.`,
        {
          ...options,
          hint: 'Check the disk and the file system holding the store, and the open-file limit (ulimit -n).',
        },
      );
    default:
      return error;
  }
}
