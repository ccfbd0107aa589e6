import { Worker } from 'node:worker_threads';
import { closeWorker, workerScript } from '../../core/worker-script.js';
import type { IndexReply, IndexRequest, IndexWorkerData } from './search-index-worker.js';

type Step = { kind: 'index'; session: string } | { kind: 'unindex' };

/** The index thread is gone (it failed to start, crashed, or was stopped): run the step on the event loop. */
export class IndexThreadGone extends Error {
  constructor() {
    super('The search index thread is not running.');
    this.name = 'IndexThreadGone';
  }
}

/**
 * Runs a file-backed store's indexing and un-indexing steps on a worker thread with its own connection
 * (`search-index-worker.ts`, decision 012): the steps' tokenizing and FTS5 merges at commit leave the event loop.
 * The store starts the thread ({@link start}) once its loop steps took long enough to be worth it (starting
 * and closing a thread added ~40 ms to a one-shot search of a small store), and stops it when it closes; until
 * it is ready (opening its connection takes tens of milliseconds, more on a loaded machine), {@link ready} says
 * no and the store runs its steps on the event loop, so a small session is still searched whole within a
 * search's wait. When it cannot start (no
 * built script, for tests run from source before a build) or dies, every step from then on, and the ones it
 * had in hand, reject with {@link IndexThreadGone}, and the store runs its steps on the event loop as before. The thread keeps the
 * process alive only while a step is in hand (as the loop's own steps did).
 */
export class IndexThread {
  readonly #data: IndexWorkerData;
  #worker: Worker | undefined;
  #gone = false;
  #ready = false;
  #nextId = 1;
  readonly #inHand = new Map<number, { resolve: (done: number) => void; reject: (error: Error) => void }>();

  /**
   * @param stepMs how long one transaction goes on taking chunks; @param batchMs how long one request goes on
   *   taking transactions, unless a writer waits (`waitingWriters`, the store connection's count).
   */
  constructor(
    path: string,
    options: { busyTimeoutMs: number; stepMs: number; batchMs: number; waitingWriters: Int32Array },
  ) {
    const { waitingWriters, ...rest } = options;
    this.#data = { path, ...rest, waitingWriters: waitingWriters.buffer as SharedArrayBuffer };
  }

  /** Starts the thread unless it runs (or failed, or stopped). */
  start(): void {
    if (!this.#worker && !this.#gone) this.#start();
  }

  /**
   * True when the thread can take a step now: false until it started and is ready, and for good once it failed
   * or stopped (steps then run on the event loop).
   */
  ready(): boolean {
    return this.#ready && !this.#gone;
  }

  /** Runs steps on the thread (see `IndexWorkerData.batchMs`); resolves with how much they did (0: nothing left). */
  step(step: Step): Promise<number> {
    const worker = this.#worker ?? this.#start();
    if (!worker) return Promise.reject(new IndexThreadGone());
    const id = this.#nextId++;
    const request: IndexRequest = step.kind === 'index' ? { id, ...step } : { id, kind: 'unindex' };
    return new Promise((resolve, reject) => {
      if (this.#inHand.size === 0) worker.ref();
      this.#inHand.set(id, { resolve, reject });
      worker.postMessage(request);
    });
  }

  /** Stops the thread once its step in hand ended (its connection closes). */
  async stop(): Promise<void> {
    this.#gone = true;
    const worker = this.#worker;
    this.#worker = undefined;
    if (!worker) return;
    await closeWorker(worker);
  }

  #start(): Worker | undefined {
    if (this.#gone) return undefined;
    const script = workerScript(import.meta.url, './search-index-worker.js');
    if (!script) {
      this.#gone = true;
      return undefined;
    }
    const worker = new Worker(script, { workerData: this.#data });
    worker.unref();
    worker.on('message', (reply: IndexReply) => this.#answer(worker, reply));
    worker.on('error', () => this.#fail(worker));
    worker.on('exit', () => this.#fail(worker));
    this.#worker = worker;
    return worker;
  }

  #answer(worker: Worker, reply: IndexReply): void {
    if ('ready' in reply) {
      this.#ready = true;
      return;
    }
    const inHand = this.#inHand.get(reply.id);
    if (!inHand) return;
    this.#inHand.delete(reply.id);
    if (this.#inHand.size === 0) worker.unref();
    if ('done' in reply) inHand.resolve(reply.done);
    else inHand.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
  }

  /** The thread failed or ended: the steps it had in hand go back to the event loop, and all later ones. */
  #fail(worker: Worker): void {
    if (this.#worker === worker) this.#worker = undefined;
    this.#gone = true;
    const inHand = [...this.#inHand.values()];
    this.#inHand.clear();
    for (const step of inHand) step.reject(new IndexThreadGone());
  }
}
