import type { ChunkIndex } from './chunk-index.js';

/**
 * Parsed chunk indexes, least recently used first out, within a memory budget. Safe without invalidation
 * because an index file never changes once written: a new content or an append gets a new content id.
 */
export class ChunkIndexCache {
  readonly #budget: number;
  readonly #entries = new Map<string, ChunkIndex>();
  #used = 0;

  constructor(budgetBytes = 32 * 1024 * 1024) {
    this.#budget = budgetBytes;
  }

  get(key: string): ChunkIndex | undefined {
    const index = this.#entries.get(key);
    if (index) {
      this.#entries.delete(key);
      this.#entries.set(key, index);
    }
    return index;
  }

  set(key: string, index: ChunkIndex): void {
    this.delete(key);
    if (index.footprint > this.#budget) return;
    this.#entries.set(key, index);
    this.#used += index.footprint;
    for (const [oldest, evicted] of this.#entries) {
      if (this.#used <= this.#budget) break;
      this.#entries.delete(oldest);
      this.#used -= evicted.footprint;
    }
  }

  delete(key: string): void {
    const index = this.#entries.get(key);
    if (!index) return;
    this.#entries.delete(key);
    this.#used -= index.footprint;
  }

  clear(): void {
    this.#entries.clear();
    this.#used = 0;
  }
}
