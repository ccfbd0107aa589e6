import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RegionMatches, RegionQuery } from './grep-region.js';
import type { GrepWorkerReply, GrepWorkerRequest } from './grep-worker.js';

/** Worker threads running greps at once (one per grep); more greps wait for one. */
const MAX_THREADS = 4;
/** Idle workers kept for the next greps. */
const MAX_IDLE = 2;

/** Thrown by {@link GrepThread.find} when the deadline passed before the worker answered. */
export class GrepDeadlineError extends Error {
  constructor() {
    super('The grep deadline passed.');
    this.name = 'GrepDeadlineError';
  }
}

/**
 * One worker thread that searches regions for one grep at a time. A search that outlives its deadline
 * terminates the thread (RE2 cannot be interrupted otherwise) and rejects at the deadline itself.
 */
export class GrepThread {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve: (value: RegionMatches & { buffer?: Buffer }) => void; reject: (error: Error) => void }
  >();
  #nextId = 0;
  #dead = false;

  constructor() {
    this.#worker = new Worker(workerScript());
    this.#worker.unref();
    this.#worker.on('message', (reply: GrepWorkerReply) => {
      const waiting = this.#pending.get(reply.id);
      if (!waiting) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if ('error' in reply) waiting.reject(new Error(`Grep worker failed: ${reply.error}`));
      else {
        const data = reply.data;
        const buffer = data ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : undefined;
        waiting.resolve({ at: reply.at, more: reply.more, ...(buffer ? { buffer } : {}) });
      }
    });
    const fail = (error: Error): void => {
      this.#dead = true;
      for (const waiting of this.#pending.values()) waiting.reject(error);
      this.#pending.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`The grep worker exited (code ${code}).`)));
  }

  /** False once the thread was terminated or died. */
  get alive(): boolean {
    return !this.#dead;
  }

  /**
   * Searches `region` in the worker. The worker gets a copy, or, when `lend` is true (a buffer the caller made
   * for this search, exactly its own ArrayBuffer), `region`'s memory itself, returned with the answer as
   * `buffer` (meanwhile `region` is empty). Rejects with {@link GrepDeadlineError} at `deadline` (epoch ms) and
   * terminates the thread when it has not answered.
   */
  find(
    pattern: string,
    ignoreCase: boolean,
    region: Buffer,
    query: RegionQuery,
    deadline: number,
    lend = false,
  ): Promise<RegionMatches & { buffer?: Buffer }> {
    const giveBack = lend && region.byteOffset === 0 && region.byteLength === region.buffer.byteLength;
    let data: Uint8Array;
    if (giveBack) {
      data = new Uint8Array(region.buffer, 0, region.byteLength);
    } else {
      data = new Uint8Array(region.byteLength);
      data.set(region);
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.terminate();
          reject(new GrepDeadlineError());
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#worker.ref();
      const request: GrepWorkerRequest = { id, pattern, ignoreCase, data, query, giveBack };
      this.#worker.postMessage(request, [data.buffer as ArrayBuffer]);
    });
  }

  /** Stops the thread (a long RE2 call keeps its CPU until it returns; nothing waits for it). */
  terminate(): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#pending.clear();
    void this.#worker.terminate();
  }
}

/**
 * Grep threads shared by the greps of this process: one per grep running, at most {@link MAX_THREADS} at once
 * (later greps wait for one), idle ones kept for the next.
 */
export class GrepThreadPool {
  readonly #idle: GrepThread[] = [];
  readonly #waiting: Array<(thread: GrepThread) => void> = [];
  #busy = 0;

  async acquire(): Promise<GrepThread> {
    if (this.#busy >= MAX_THREADS) return new Promise((resolve) => this.#waiting.push(resolve));
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

/**
 * The worker's script: `grep-worker.js` next to this module in the built package. Tests run this module from its
 * TypeScript source, which a worker thread cannot load: they use the build in `dist/` (`npm test` builds first).
 */
function workerScript(): URL {
  const sibling = new URL('./grep-worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return sibling;
  const built = new URL('../../../dist/scratchpad/grep/grep-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(built))) {
    throw new Error(`The grep worker is not built (${fileURLToPath(built)}): run \`npm run build\` first.`);
  }
  return built;
}
