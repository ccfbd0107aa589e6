import { yieldToLoop } from '../background-indexer.js';

/**
 * Cooperative time slicing for work done in short synchronous pieces: {@link TurnBudget.pause} yields a turn of
 * the event loop only once `budgetMs` passed since the last one, so small work (a search over a few megabytes)
 * runs without waiting behind other tasks, and large work still gives the loop a turn every `budgetMs` plus one
 * piece.
 */
export class TurnBudget {
  readonly #budgetMs: number;
  #since = performance.now();

  constructor(budgetMs: number) {
    this.#budgetMs = budgetMs;
  }

  /** Yields a turn of the event loop when the budget is spent; resolves at once otherwise. */
  async pause(): Promise<void> {
    if (performance.now() - this.#since < this.#budgetMs) return;
    await yieldToLoop();
    this.#since = performance.now();
  }
}
