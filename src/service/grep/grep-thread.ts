import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerScript } from '../../core/worker-script.js';
import type { ChunkSource } from '../../stores/driver.js';
import type { GrepScan } from './grep-scanner.js';
import type { GrepJob, GrepWorkerReply, GrepWorkerRequest } from './grep-worker.js';

/** Worker threads running greps at once (one per grep); more greps wait for one. */
const MAX_THREADS = 4;
/** Idle workers kept for the next greps. */
const MAX_IDLE = 2;

/** Thrown by {@link GrepThread.scan} when the deadline passed before the worker answered. */
export class GrepDeadlineError extends Error {
  constructor() {
    super('The grep deadline passed.');
    this.name = 'GrepDeadlineError';
  }
}

/**
 * One worker thread that runs one scan at a time. It asks for the sources of each batch of chunks (`sources`);
 * a scan that outlives its deadline terminates the thread (RE2 cannot be interrupted otherwise) and rejects at
 * the deadline itself.
 */
export class GrepThread {
  readonly #worker: Worker;
  #job:
    | {
        id: number;
        sources: (seq: number, read: boolean) => Promise<ChunkSource[]>;
        resolve: (scan: GrepScan) => void;
        reject: (error: Error) => void;
      }
    | undefined;
  #nextId = 0;
  #dead = false;

  constructor() {
    this.#worker = new Worker(grepWorkerScript());
    this.#worker.unref();
    this.#worker.on('message', (reply: GrepWorkerReply) => {
      const job = this.#job;
      if (!job || job.id !== reply.id) return;
      if (reply.type === 'sources') {
        Promise.all(reply.seqs.map((seq) => job.sources(seq, reply.read))).then(
          (sources) => this.#send(reply.id, reply.request, sources),
          (error: Error) => {
            // A scan that ended meanwhile (stopped at its limit) asked for sources it no longer needs.
            if (this.#job !== job) return;
            // The worker waits for these sources: it cannot go on, and the scan fails with the store's error.
            this.terminate();
            job.reject(error);
          },
        );
        return;
      }
      this.#job = undefined;
      this.#worker.unref();
      if (reply.type === 'error') job.reject(new Error(`Grep worker failed: ${reply.error}`));
      else job.resolve(reply.scan);
    });
    const fail = (error: Error): void => {
      this.#dead = true;
      this.#job?.reject(error);
      this.#job = undefined;
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`The grep worker exited (code ${code}).`)));
  }

  /** False once the thread was terminated or died. */
  get alive(): boolean {
    return !this.#dead;
  }

  /**
   * Runs `job` in the worker, answering its requests with `sources(seq, read)`: where the bytes of chunks
   * `[seq, seq + job.batchChunks)` are (`read`: the chunks with their bytes). Rejects with {@link GrepDeadlineError}
   * at `deadline` (epoch ms) and terminates the thread when it has not finished.
   */
  scan(
    job: GrepJob,
    sources: (seq: number, read: boolean) => Promise<ChunkSource[]>,
    deadline: number,
  ): Promise<GrepScan> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.terminate();
          reject(new GrepDeadlineError());
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#job = {
        id,
        sources,
        resolve: (scan) => {
          clearTimeout(timer);
          resolve(scan);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.#worker.ref();
      const request: GrepWorkerRequest = { type: 'grep', id, job };
      this.#worker.postMessage(request);
    });
  }

  /** Sends sources to the worker: bytes in memory as copies it owns (transferred, so copied once). */
  #send(id: number, request: number, batches: ReadonlyArray<readonly ChunkSource[]>): void {
    if (this.#dead || this.#job?.id !== id) return;
    const transfer: ArrayBuffer[] = [];
    const owned = batches.map((sources) =>
      sources.map((source): ChunkSource => {
        if (!('data' in source)) return source;
        const data = new Uint8Array(source.data.byteLength);
        data.set(source.data);
        transfer.push(data.buffer);
        return { ...source, data };
      }),
    );
    const message: GrepWorkerRequest = { type: 'sources', id, request, sources: owned };
    this.#worker.postMessage(message, transfer);
  }

  /** Stops the thread and rejects the scan it runs (another scan of the same grep failed). */
  cancel(): void {
    const job = this.#job;
    this.terminate();
    job?.reject(new Error('The grep was cancelled.'));
  }

  /** Stops the thread (a long RE2 call keeps its CPU until it returns; nothing waits for it). */
  terminate(): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#job = undefined;
    void this.#worker.terminate();
  }
}

/**
 * Grep threads shared by the greps of this process: one or two per grep running, at most {@link MAX_THREADS} at
 * once (later greps wait for one), idle ones kept for the next.
 */
export class GrepThreadPool {
  /**
   * Threads one grep of a large entry may use: two when the machine has a core left for the event loop and the
   * rest of the process besides two scans, else one (on a loaded 2-core machine two scans were no faster than one
   * and delayed the event loop's timers; decision 002). Tests set it to exercise the split.
   */
  threadsPerGrep = availableParallelism() > 2 ? 2 : 1;
  readonly #idle: GrepThread[] = [];
  readonly #waiting: Array<(thread: GrepThread) => void> = [];
  #busy = 0;

  async acquire(): Promise<GrepThread> {
    if (this.#busy >= MAX_THREADS) return new Promise((resolve) => this.#waiting.push(resolve));
    this.#busy++;
    return this.#take();
  }

  /** A thread if one is free now (a grep's second thread: it never waits, so greps cannot wait on each other). */
  tryAcquire(): GrepThread | undefined {
    if (this.#busy >= MAX_THREADS || this.#waiting.length > 0) return undefined;
    this.#busy++;
    return this.#take();
  }

  release(thread: GrepThread): void {
    const next = this.#waiting.shift();
    if (next) {
      next(thread.alive ? thread : this.#take());
      return;
    }
    this.#busy--;
    if (!thread.alive) return;
    if (this.#idle.length < MAX_IDLE) this.#idle.push(thread);
    else thread.terminate();
  }

  #take(): GrepThread {
    for (let thread = this.#idle.pop(); thread; thread = this.#idle.pop()) {
      if (thread.alive) return thread;
    }
    return new GrepThread();
  }
}

/** The pool every grep of this process uses. */
export const grepThreads = new GrepThreadPool();

/** The grep worker's script (its build in `dist/` when tests run this module from source). */
function grepWorkerScript(): URL {
  const script = workerScript(import.meta.url, './grep-worker.js');
  if (!script) throw new Error('The grep worker is not built: run `npm run build` first.');
  return script;
}
