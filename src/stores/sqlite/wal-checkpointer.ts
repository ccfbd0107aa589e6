import { Worker } from 'node:worker_threads';
import { closeWorker, workerScript } from '../../core/worker-script.js';
import type { SqliteDatabase } from './sqlite-database.js';
import type { CheckpointWorkerData } from './wal-checkpoint-worker.js';

/** Commits on a connection before its checkpoints move to their own thread (a short-lived store never starts one). */
const START_AFTER_COMMITS = 256;
/**
 * The thread checkpoints once this many WAL frames are new (16 MiB of 4 KiB pages). Each checkpoint makes the next
 * commit restart the WAL, which syncs its header on the event loop: fewer, larger checkpoints mean fewer of those
 * (a 1 KB write changes about 14 pages, so one per ~300 writes, about as often as a one-table insert restarts it
 * at SQLite's default of 1,000).
 */
const THRESHOLD_FRAMES = 4000;
/** How often the thread looks at the WAL while commits come in, and while none do. */
const BUSY_INTERVAL_MS = 10;
const IDLE_INTERVAL_MS = 200;
/**
 * The store's connection still checkpoints itself once the WAL holds this many pages (64 MiB of 4 KiB pages, the
 * WAL size limit): a backstop for when the thread falls behind. SQLite's default, 1,000, is what it uses before
 * the thread runs and after it stopped or failed.
 */
const BACKSTOP_PAGES = 16384;
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/**
 * Moves a store's WAL checkpoints off the event loop (decision 006). In WAL mode with `synchronous = NORMAL` a
 * commit only appends to the WAL; every 1,000 pages SQLite checkpoints inside the commit that crossed the mark:
 * it copies the pages into the database and fsyncs both files, which under load took up to 160 ms and made nine
 * tenths of the time of small writes. After {@link START_AFTER_COMMITS} commits, a worker thread with its own
 * connection watches the WAL and runs passive checkpoints instead (`wal-checkpoint-worker.ts`), and the
 * connection's own threshold becomes a backstop. Durability is unchanged: the WAL is synced at each checkpoint as
 * before, only in another thread.
 */
export class WalCheckpointer {
  readonly #path: string;
  readonly #database: SqliteDatabase;
  #commits = 0;
  #worker: Worker | undefined;
  #stopped = false;

  constructor(path: string, database: SqliteDatabase) {
    this.#path = path;
    this.#database = database;
  }

  /** Counts a commit of the store's connection; starts the thread once there were enough. */
  committed(): void {
    if (this.#worker || this.#stopped || ++this.#commits < START_AFTER_COMMITS) return;
    this.#start();
  }

  /** Stops the thread (its connection closes) and gives the store's connection back its own checkpoints. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const worker = this.#worker;
    this.#worker = undefined;
    if (!worker) return;
    await closeWorker(worker);
  }

  #start(): void {
    // Without a built worker (tests from source before a build) the connection keeps checkpointing itself.
    const script = workerScript(import.meta.url, './wal-checkpoint-worker.js');
    if (!script) {
      this.#stopped = true;
      return;
    }
    const data: CheckpointWorkerData = {
      path: this.#path,
      thresholdFrames: THRESHOLD_FRAMES,
      busyIntervalMs: BUSY_INTERVAL_MS,
      idleIntervalMs: IDLE_INTERVAL_MS,
    };
    const worker = new Worker(script, { workerData: data });
    worker.unref();
    worker.on('error', () => this.#fallBack(worker));
    worker.on('exit', () => this.#fallBack(worker));
    this.#worker = worker;
    this.#database.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** The thread failed or ended: the connection checkpoints itself again. */
  #fallBack(worker: Worker): void {
    if (this.#worker === worker) this.#worker = undefined;
    this.#stopped = true;
    try {
      this.#database.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    } catch {
      // the connection is closed
    }
  }
}
