import { closeSync, existsSync, openSync, statfsSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Space kept aside so that deleting works on a full disk (what a delete's WAL frames need, with room to spare). */
export const DISK_RESERVE_BYTES = 4 * 1024 * 1024;

/**
 * A file of zeros beside the database (`PATH.reserve`), written while there is space. On a full disk, even a
 * delete needs new pages (WAL frames) before it frees any, so a delete, a session delete or gc that fails with a
 * full disk releases the reserve and tries once more; the reserve is written again once there is room. Writes
 * never use it: they fail cleanly with `STORE_FULL` and leave it for the deletes that free space.
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
    if (existsSync(this.path) || !this.#roomFor(2 * this.#bytes)) return;
    let fd: number;
    try {
      fd = openSync(this.path, 'wx');
    } catch {
      return; // it exists already, or the directory is not writable: nothing to do
    }
    try {
      const zeros = Buffer.alloc(64 * 1024);
      for (let written = 0; written < this.#bytes; ) written += writeSync(fd, zeros, 0, zeros.length);
      closeSync(fd);
    } catch {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      this.release();
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
    try {
      const disk = statfsSync(dirname(this.path));
      return disk.bavail * disk.bsize >= bytes;
    } catch {
      return false;
    }
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
