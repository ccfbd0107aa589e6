/** Content ids taken from the store per reservation: one small transaction per this many staged writes. */
const BLOCK = 256;

/**
 * Hands out `contents.id`s for new staging areas without writing a row: ids are reserved in blocks (the store
 * moves its `AUTOINCREMENT` counter past the block, in its own transaction), so no other connection or process
 * can get them, and a small write creates its `contents` row only inside its commit (decision 006: one commit
 * per small write). An id reserved and never used is skipped, never reused.
 */
export class ContentIds {
  readonly #reserve: (count: number) => Promise<number>;
  #next = 0;
  #last = -1;

  /** @param reserve reserves `count` ids and returns the last of them (the block is `[last - count + 1, last]`). */
  constructor(reserve: (count: number) => Promise<number>) {
    this.#reserve = reserve;
  }

  /** A content id no one else has or will get. */
  async next(): Promise<number> {
    if (this.#next > this.#last) {
      // Two callers may reserve at once: each takes its id from the block it got, the rest of one block is skipped.
      const last = await this.#reserve(BLOCK);
      this.#last = last;
      this.#next = last - BLOCK + 1;
    }
    return this.#next++;
  }
}
