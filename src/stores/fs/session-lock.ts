import { randomBytes } from 'node:crypto';
import { open, readFile, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { ScratchpadError } from '../../core/errors.js';
import { removeFile } from './atomic-file.js';
import { errorCode, isMissing, storeError } from './fs-errors.js';

/** Tuning of the cross-process session lock. */
export interface SessionLockOptions {
  /**
   * A lock whose file was not refreshed for this long is taken over (default 30 s). A holder refreshes its lock
   * file's mtime every third of this, so only a crashed, frozen or unreachable holder goes stale.
   */
  staleMs?: number;
  /** How long to wait for a busy lock before failing with `STORE_UNAVAILABLE` (default 60 s). */
  timeoutMs?: number;
}

/** A held lock. Release it exactly once, in a `finally`. */
export interface HeldLock {
  /** The lock file moved away with its directory (a deleted session): release must not touch the old path. */
  detach(): void;
  release(): Promise<void>;
}

interface Holder {
  pid: number;
  host: string;
  token: string;
  raw: string;
  mtimeMs: number;
}

const HOST = hostname();

/**
 * Mutual exclusion for one session's commits and deletes, across processes and within one.
 *
 * Across processes: the lock is a file created with `open(path, 'wx')` (`O_CREAT | O_EXCL`, atomic on local
 * file systems) holding `pid`, host, a random token and the time. The holder refreshes its mtime while it holds
 * it and unlinks it on release (only if the token is still its own). A waiter polls with backoff. A lock is
 * stale when its holder is a dead process on this host (`kill(pid, 0)` fails with `ESRCH`) or when its mtime is
 * older than `staleMs` (a crashed holder on another host, or a reused pid). Taking over a stale lock is itself
 * serialized by a second `wx` file (`lock.break`), and the breaker re-reads the lock under it and removes it only
 * if it is still the same stale lock, so two waiters can never both break it and both win.
 *
 * Within a process: waiters queue on a promise chain per lock path, so they do not poll the file system.
 */
export class SessionLocks {
  readonly #staleMs: number;
  readonly #timeoutMs: number;
  readonly #queues = new Map<string, Promise<void>>();

  constructor(options: SessionLockOptions = {}) {
    this.#staleMs = options.staleMs ?? 30_000;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
  }

  /**
   * Waits for and takes the lock at `path`. When the lock's directory does not exist, calls `createDirectory`
   * and tries again, or returns `undefined` when there is none (nothing to lock: the session does not exist).
   */
  async acquire(path: string, createDirectory?: () => Promise<void>): Promise<HeldLock | undefined> {
    const previous = this.#queues.get(path) ?? Promise.resolve();
    let releaseLocal!: () => void;
    const mine = new Promise<void>((resolve) => {
      releaseLocal = resolve;
    });
    const tail = previous.then(() => mine);
    this.#queues.set(path, tail);
    const leaveQueue = (): void => {
      releaseLocal();
      if (this.#queues.get(path) === tail) this.#queues.delete(path);
    };
    await previous;
    try {
      const token = await this.#acquireFile(path, createDirectory);
      if (token === undefined) {
        leaveQueue();
        return undefined;
      }
      return this.#held(path, token, leaveQueue);
    } catch (error) {
      leaveQueue();
      throw error;
    }
  }

  #held(path: string, token: string, leaveQueue: () => void): HeldLock {
    let state: 'held' | 'detached' | 'released' = 'held';
    const refresh = setInterval(
      () => {
        const now = new Date();
        utimes(path, now, now).catch(() => {});
      },
      Math.max(10, Math.floor(this.#staleMs / 3)),
    );
    refresh.unref();
    return {
      detach: () => {
        if (state === 'held') state = 'detached';
        clearInterval(refresh);
      },
      release: async () => {
        if (state === 'released') return;
        const wasHeld = state === 'held';
        state = 'released';
        clearInterval(refresh);
        try {
          if (wasHeld) {
            const holder = await readHolder(path);
            if (holder?.token === token) await removeFile(path);
          }
        } finally {
          leaveQueue();
        }
      },
    };
  }

  async #acquireFile(path: string, createDirectory?: () => Promise<void>): Promise<string | undefined> {
    const token = randomBytes(12).toString('hex');
    const content = `${process.pid}\n${HOST}\n${token}\n${new Date().toISOString()}\n`;
    const deadline = Date.now() + this.#timeoutMs;
    let delay = 1;
    let created = false;
    for (;;) {
      try {
        const handle = await open(path, 'wx');
        try {
          await handle.writeFile(content);
        } finally {
          await handle.close();
        }
        return token;
      } catch (error) {
        if (isMissing(error)) {
          if (!createDirectory) return undefined;
          if (created && Date.now() > deadline) throw storeError(error, path, 'create the lock file');
          await createDirectory();
          created = true;
          continue;
        }
        if (errorCode(error) !== 'EEXIST') throw storeError(error, path, 'create the lock file');
      }
      if (await this.#breakIfStale(path)) continue;
      if (Date.now() > deadline) throw await this.#timeout(path);
      await sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 25);
    }
  }

  /** True when the lock is gone or was stale and has been removed (try again now). */
  async #breakIfStale(path: string): Promise<boolean> {
    const holder = await readHolder(path);
    if (!holder) return true;
    if (!this.#isStale(holder)) return false;
    const breakPath = `${path}.break`;
    try {
      const handle = await open(breakPath, 'wx');
      await handle.close();
    } catch (error) {
      if (isMissing(error)) return true;
      if (errorCode(error) !== 'EEXIST') throw storeError(error, breakPath, 'create the lock breaker file');
      // A breaker that crashed between its two steps leaves this file behind; breaking takes microseconds.
      const breaker = await stat(breakPath).catch(() => undefined);
      if (breaker && Date.now() - breaker.mtimeMs > Math.min(this.#staleMs, 5_000))
        await removeFile(breakPath);
      return false;
    }
    try {
      const again = await readHolder(path);
      if (again && again.raw === holder.raw && again.mtimeMs === holder.mtimeMs && this.#isStale(again))
        await removeFile(path);
    } finally {
      await removeFile(breakPath);
    }
    return true;
  }

  #isStale(holder: Holder): boolean {
    if (Date.now() - holder.mtimeMs > this.#staleMs) return true;
    return holder.host === HOST && holder.pid !== process.pid && !isAlive(holder.pid);
  }

  async #timeout(path: string): Promise<ScratchpadError> {
    const holder = await readHolder(path);
    const who = holder && holder.pid > 0 ? `process ${holder.pid} on ${holder.host}` : 'another process';
    return new ScratchpadError(
      'STORE_UNAVAILABLE',
      `Timed out after ${this.#timeoutMs} ms waiting for the session lock ${path}, held by ${who}.`,
      {
        hint: `Retry when that process is done. If no scratchpad process is running, delete ${path}.`,
        details: { path, ...(holder ? { pid: holder.pid, host: holder.host } : {}) },
      },
    );
  }
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    const [raw, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    const [pid, host, token] = raw.split('\n');
    return {
      pid: Number.parseInt(pid ?? '', 10) || 0,
      host: host ?? '',
      token: token ?? '',
      raw,
      mtimeMs: info.mtimeMs,
    };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw storeError(error, path, 'read the lock file');
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
