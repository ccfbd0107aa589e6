import type { IndexingProgress, IndexSessionOptions } from './driver.js';

/**
 * Runs a session's full-text indexing as a loop of short steps with a turn of the event loop between them, one loop
 * per session at a time (SQLite's steps are short transactions, on its index thread for a store on a file,
PostgreSQL's statements the server runs). A search starts (or joins) its session's loop and waits for it only a
 * little: a large session goes on indexing after the search has answered from the part already indexed. SQLite's
 * un-indexing queue runs on a loop of its own ({@link BackgroundIndexer.start}: nobody waits for it).
 */
/**
 * How long a search waits for its session's index before answering from the part indexed so far (with the
 * progress): long enough that a session of a few megabytes is searched whole, short enough that a client
 * asking about 1 GB hears back at once.
 */
export const SEARCH_INDEX_WAIT_MS = 250;

/**
 * How often {@link BackgroundIndexer.indexUntilComplete} reports progress and looks at its signal; also how long it
 * waits before looking again when the rest of the session is being indexed by another process.
 */
export const INDEX_PROGRESS_INTERVAL_MS = 250;

export class BackgroundIndexer {
  readonly #step: (session: string) => number | Promise<number>;
  readonly #running = new Map<string, Promise<void>>();
  /** Loops asked to start while they ran: they take one more step after the one that found nothing to do. */
  readonly #again = new Set<string>();
  #stopped = false;

  /**
   * @param step indexes a little of the session (one short transaction) and returns how much; 0 when done. It is
   *   the caller's to keep short. A step that throws (or rejects) ends the loop; the next search starts a new one.
   */
  constructor(step: (session: string) => number | Promise<number>) {
    this.#step = step;
  }

  /** True while `session`'s loop runs (a step of it may have begun before the caller's last look). */
  running(session: string): boolean {
    return this.#running.has(session);
  }

  /**
   * Starts `session`'s loop unless it runs, and waits until it finished or `waitMs` passed. Resolves `true` when
   * the session is fully indexed.
   */
  async indexFor(session: string, waitMs: number): Promise<boolean> {
    const loop = this.#loop(session);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    });
    try {
      return await Promise.race([loop.then(() => true), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Runs `session`'s loop until `progress` says the whole session is indexed (chunks another process was
   * indexing included), reporting it every {@link INDEX_PROGRESS_INTERVAL_MS}. An aborted `signal` stops the wait
   * (rejecting with its reason) within that interval; the loop itself goes on in the background as after a search.
   */
  async indexUntilComplete(
    session: string,
    progress: () => Promise<IndexingProgress>,
    options: IndexSessionOptions = {},
  ): Promise<IndexingProgress> {
    for (;;) {
      options.signal?.throwIfAborted();
      const finished = await this.indexFor(session, INDEX_PROGRESS_INTERVAL_MS);
      const now = await progress();
      options.onProgress?.(now);
      if (now.done >= now.total) return now;
      options.signal?.throwIfAborted();
      // This loop found nothing left to take: another process holds the rest. Look again a little later.
      if (finished) await new Promise((resolve) => setTimeout(resolve, INDEX_PROGRESS_INTERVAL_MS));
    }
  }

  /**
   * Starts `session`'s loop unless it runs, without waiting for it; its first step runs after a turn of the
   * event loop (so a caller may start it from a constructor or a transaction's end). A loop that runs takes at
   * least one more step that begins after this call: its step in hand (on another thread, or waiting for the
   * lock) may have looked before the caller's work committed.
   */
  start(session: string): void {
    if (this.#stopped) return;
    if (this.#running.has(session)) this.#again.add(session);
    else this.#loop(session, true);
  }

  /** Stops every loop after its current step and waits for them. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.allSettled(this.#running.values());
  }

  #loop(session: string, deferred = false): Promise<void> {
    const running = this.#running.get(session);
    if (running) return running;
    // `finally` callbacks always run later, so the entry is removed after it was set, even when the first step
    // already finds nothing to do.
    const loop = this.#indexUntilDone(session, deferred).finally(() => this.#running.delete(session));
    this.#running.set(session, loop);
    // A failing step (a lock held elsewhere past the busy timeout, a closed store) surfaces to the searches
    // waiting on it; the loop itself must not become an unhandled rejection once nobody waits.
    loop.catch(() => {});
    return loop;
  }

  async #indexUntilDone(session: string, deferred: boolean): Promise<void> {
    if (deferred) await yieldToLoop();
    while (!this.#stopped) {
      this.#again.delete(session);
      if ((await this.#step(session)) === 0 && !this.#again.has(session)) return;
      await yieldToLoop();
    }
  }
}

/** Resolves after a turn of the event loop (timers and I/O due meanwhile run first). */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
