import { describe, expect, it } from 'vitest';
import { BackgroundIndexer, INDEX_PROGRESS_INTERVAL_MS } from './background-indexer.js';
import type { IndexingProgress } from './driver.js';

describe('BackgroundIndexer.indexUntilComplete', () => {
  it('waits for chunks another process is indexing: its own loop has nothing left, the progress is not whole', async () => {
    // This process's steps find nothing to take; the other process finishes its part after three looks.
    const indexer = new BackgroundIndexer(() => 0);
    const looks: IndexingProgress[] = [
      { done: 10, total: 30 },
      { done: 20, total: 30 },
      { done: 30, total: 30 },
    ];
    let look = 0;
    const reported: IndexingProgress[] = [];
    const started = Date.now();
    const final = await indexer.indexUntilComplete(
      's',
      async () => looks[Math.min(look++, 2)] as IndexingProgress,
      {
        onProgress: (progress) => reported.push(progress),
      },
    );
    expect(final).toEqual({ done: 30, total: 30 });
    expect(reported).toEqual(looks);
    // It looked again after a pause each time, not in a busy loop.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * INDEX_PROGRESS_INTERVAL_MS - 20);
  });

  it('stops waiting when its signal is aborted, within an interval', async () => {
    const indexer = new BackgroundIndexer(() => 0);
    const stop = new AbortController();
    const started = Date.now();
    const waiting = indexer.indexUntilComplete('s', async () => ({ done: 1, total: 2 }), {
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(new Error('interrupted')), 100);
    await expect(waiting).rejects.toThrow('interrupted');
    expect(Date.now() - started).toBeLessThan(100 + 3 * INDEX_PROGRESS_INTERVAL_MS);
  });
});
