import { closeSync, existsSync, openSync, statfsSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';
import { fileError } from './sqlite-errors.js';

/** Space kept aside so that deleting works on a full disk (what a delete's WAL frames need, with room to spare). */
const DISK_RESERVE_BYTES = 4 * 1024 * 1024;

/**
 * A file of zeros beside the database (`PATH.reserve`), written while there is space. On a full disk, even a
 * delete needs new pages (WAL frames) before it frees any, so a delete, a session delete or gc that fails with a
 * full disk releases the reserve and tries once more. Writes never use it: before one starts, the reserve is
 * written back ({@link DiskReserve.assertRoomForWrite}), and when the disk has no room for it the write fails cleanly with
 * `STORE_FULL`, so the room the deletes freed is never taken by writes before the reserve has it back: the next
 * full disk finds a reserve to release, after any number of fill/delete cycles.
 */
export class DiskReserve {
  readonly path: string;
  readonly #bytes: number;

  constructor(databasePath: string, bytes = DISK_RESERVE_BYTES) {
    this.path = `${databasePath}.reserve`;
    this.#bytes = bytes;
  }

  /**
   * Writes the reserve if it is missing and the disk has room for it twice over (so taking it back never fills the
   * disk again); otherwise leaves none (and no partial file). Never throws.
   */
  ensure(): void {
    if (!existsSync(this.path) && this.#roomFor(2 * this.#bytes)) this.#write();
  }

  /**
   * Before a write to the store at `databasePath`: writes the reserve back if it is missing and the disk has room
   * for it (once over). Throws `STORE_FULL` when the disk has less room than the reserve (the write must not take
   * the room deletes need), or the typed error of the file system when the reserve cannot be written (a quota:
   * `STORE_FULL`; permissions: `STORE_UNAVAILABLE`).
   */
  assertRoomForWrite(databasePath: string): void {
    if (existsSync(this.path)) return;
    const free = this.freeBytes();
    const failure = free === undefined || free >= this.#bytes ? this.#write() : undefined;
    if (existsSync(this.path)) return;
    if (free !== undefined && free < this.#bytes) {
      throw new ScratchpadError(
        'STORE_FULL',
        `The disk holding the store ${databasePath} is full: ${formatBytes(free)} free, less than the ${formatBytes(this.#bytes)} kept aside so that deletes and gc work on a full disk.`,
        {
          details: { path: databasePath, freeBytes: free, reserveBytes: this.#bytes },
          hint: 'Delete entries you no longer need, run gc to remove expired ones, or free disk space.',
        },
      );
    }
    // Written, and released at once by a delete in another process: the write goes on, as it would have a moment
    // later.
    if (failure === undefined) return;
    throw fileError(
      failure,
      this.path,
      'write the disk reserve (the space kept aside so that deletes work on a full disk)',
    );
  }

  /** Bytes free on the disk for this process, or undefined when they cannot be read. */
  freeBytes(): number | undefined {
    try {
      const disk = statfsSync(dirname(this.path));
      return disk.bavail * disk.bsize;
    } catch {
      return undefined;
    }
  }

  /** Writes the reserve whole, or leaves no file; returns why it could not (undefined when it exists now). */
  #write(): unknown {
    let fd: number;
    try {
      fd = openSync(this.path, 'wx');
    } catch (error) {
      // EEXIST: another process wrote it meanwhile.
      return (error as { code?: unknown }).code === 'EEXIST' ? undefined : error;
    }
    try {
      const zeros = Buffer.alloc(64 * 1024);
      for (let written = 0; written < this.#bytes; ) {
        written += writeSync(fd, zeros, 0, Math.min(zeros.length, this.#bytes - written));
      }
      closeSync(fd);
      return undefined;
    } catch (error) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      this.release();
      return error;
    }
  }

  /**
   * True when the disk has less room than twice the reserve: deletes then release what they free at once, rather
   * than keeping it for readers, so that a write fits again.
   */
  lowOnSpace(): boolean {
    return !this.#roomFor(2 * this.#bytes);
  }

  #roomFor(bytes: number): boolean {
    return (this.freeBytes() ?? 0) >= bytes;
  }

  /** Gives the reserved space back to the file system. Returns true when there was a reserve to release. */
  release(): boolean {
    try {
      unlinkSync(this.path);
      return true;
    } catch {
      return false;
    }
  }
}
