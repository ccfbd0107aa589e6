import { ScratchpadError } from '../../core/errors.js';

/** The `code` of a Node.js system error (`ENOENT`, `EACCES`, …), if `error` is one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for "the file or one of its directories is not there". */
export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Turns a failed file-system call into a `ScratchpadError` a caller can act on (permissions, read-only or full
 * disk, a file where a directory should be), naming the path; anything else is returned unchanged (a bug).
 */
export function storeError(error: unknown, path: string, action: string): unknown {
  if (ScratchpadError.isInstance(error)) return error;
  const code = errorCode(error);
  const details = { path, code };
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return new ScratchpadError('STORE_UNAVAILABLE', `Cannot ${action} ${path}: permission denied.`, {
        hint: 'Make the store directory readable and writable by this user, or point --store at another directory.',
        details,
        cause: error,
      });
    case 'EROFS':
      return new ScratchpadError(
        'STORE_UNAVAILABLE',
        `Cannot ${action} ${path}: the file system is read-only.`,
        {
          hint: 'Point --store at a directory on a writable file system.',
          details,
          cause: error,
        },
      );
    case 'ENOSPC':
    case 'EDQUOT':
      return new ScratchpadError('STORE_FULL', `Cannot ${action} ${path}: no space left on the device.`, {
        hint: 'Free disk space (run gc, delete entries or sessions) or move the store.',
        details,
        cause: error,
      });
    case 'ENOTDIR':
    case 'EEXIST':
    case 'EISDIR':
      return new ScratchpadError(
        'STORE_UNAVAILABLE',
        `Cannot ${action} ${path}: a file is in the way of the store layout.`,
        {
          hint: 'Move the file away (the fs store needs a directory there), or use another session id or store directory.',
          details,
          cause: error,
        },
      );
    case 'EMFILE':
    case 'ENFILE':
      return new ScratchpadError('STORE_UNAVAILABLE', `Cannot ${action} ${path}: too many open files.`, {
        hint: 'Raise the open-file limit (ulimit -n) or run fewer operations at once.',
        details,
        cause: error,
      });
    case 'EXDEV':
    case 'ENOTSUP':
    case 'EOPNOTSUPP':
      return new ScratchpadError(
        'STORE_UNAVAILABLE',
        `Cannot ${action} ${path}: the file system does not support what the fs store needs (rename within the root, hard links).`,
        {
          hint: 'Keep the whole store on one local file system, or use the sqlite: store.',
          details,
          cause: error,
        },
      );
    default:
      return error;
  }
}

/** Runs `body`, converting file-system failures with {@link storeError}. */
export async function guard<T>(path: string, action: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw storeError(error, path, action);
  }
}
