import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  unlinkSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileError } from './sqlite-errors.js';

/**
 * The directory of side files next to a database file, `<database file>.blobs/`, holding the bytes of large
 * contents (see `README.md`). Every method is synchronous except where a caller needs overlap with other work;
 * file handles are opened per operation and never cached, so a deleted file never stays pinned by this process.
 */
export class BlobDirectory {
  /** Absolute path of the directory. */
  readonly path: string;
  #created = false;

  /** `databasePath` must be the database file; symlinks are resolved so every process finds the same directory. */
  constructor(databasePath: string) {
    let resolved: string;
    try {
      resolved = realpathSync(databasePath);
    } catch {
      resolved = join(realpathSync(dirname(databasePath)), basename(databasePath));
    }
    this.path = `${resolved}.blobs`;
  }

  /** A new, never-used file name (`<file id>-<random>`), so a leftover of another database can never collide. */
  static fileName(fileId: number): string {
    return `${fileId}-${randomBytes(6).toString('hex')}`;
  }

  /** Full path of side file `name`. */
  filePath(name: string): string {
    return join(this.path, name);
  }

  /**
   * Creates side file `name` (failing if it exists) and returns its descriptor. Creates the directory first when
   * needed and syncs its parent, so the directory itself survives a power loss once a commit depends on it.
   */
  create(name: string): number {
    const path = this.filePath(name);
    try {
      if (!this.#created) {
        mkdirSync(this.path, { recursive: true });
        syncDirectory(dirname(this.path));
        this.#created = true;
      }
      return openSync(path, 'wx', 0o644);
    } catch (error) {
      throw fileError(error, path, 'create the side file');
    }
  }

  /** Syncs the directory, so the names of files created in it are durable. */
  sync(): void {
    syncDirectory(this.path);
  }

  /** Opens side file `name` for reading. Throws the raw error (`ENOENT` when it is missing). */
  openForReading(name: string): number {
    return openSync(this.filePath(name), 'r');
  }

  /**
   * Reads `length` bytes at `position` of an open side file. Returns fewer bytes only when the file ends
   * early (the caller reports that as corruption).
   */
  static read(fd: number, position: number, length: number): Buffer {
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const read = readSync(fd, buffer, done, length - done, position + done);
      if (read === 0) return buffer.subarray(0, done);
      done += read;
    }
    return buffer;
  }

  /** Reads one stored range of side file `name`, or `undefined` when the file is missing. */
  readRange(name: string, position: number, length: number): Buffer | undefined {
    let fd: number;
    try {
      fd = this.openForReading(name);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    try {
      return BlobDirectory.read(fd, position, length);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Deletes side files, best effort: a file already gone is fine (another process deleted it first), and one that
   * cannot be deleted now stays an orphan for the next sweep. Returns how many this call deleted and their size.
   */
  remove(names: Iterable<string>): { count: number; bytes: number } {
    const removed = { count: 0, bytes: 0 };
    for (const name of names) {
      const path = this.filePath(name);
      try {
        const size = lstatSync(path).size;
        unlinkSync(path);
        removed.count++;
        removed.bytes += size;
      } catch {
        // Gone already, or left for the next sweep.
      }
    }
    return removed;
  }

  /** Names of the files in the directory (none when it does not exist yet). */
  list(): string[] {
    try {
      return readdirSync(this.path);
    } catch (error) {
      if (isMissing(error)) return [];
      throw fileError(error, this.path, 'list the side-file directory');
    }
  }
}

/** True for "the file or one of its directories is not there". */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** fsync on a directory; platforms that cannot (Windows) make entries durable without it. */
function syncDirectory(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw error;
  } finally {
    closeSync(fd);
  }
}
