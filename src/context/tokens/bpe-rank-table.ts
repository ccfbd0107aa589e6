/**
 * The ranks of a BPE encoding (token bytes → rank), looked up by a span of a byte array and its hash instead of a
 * string: the merge loop of {@link createBpeCount} probes thousands of spans per word, and building a string for
 * each (what gpt-tokenizer does) costs more than the merge itself.
 *
 * Open addressing over typed arrays; each slot keeps the rank and the span's 32-bit hash, and a hit is confirmed
 * byte by byte. Hashes are polynomial (see {@link extendHash}), so a merge loop that keeps prefix hashes of a word
 * gets the hash of any span in constant time ({@link spanHash}).
 */
export class BpeRankTable {
  /** Length in bytes of the longest token: a longer span is never a token. */
  maxTokenBytes = 0;
  /** The rank of each single byte's token (-1 where a byte is not one). */
  readonly byteRanks = new Int32Array(256).fill(-1);
  /** Ranks run from 0 to `tokenCount - 1`. */
  readonly tokenCount: number;
  #bytes: Uint8Array;
  #used = 0;
  /**
   * Four integers per slot, so a probe reads one cache line: the span's hash, rank + 1 (0: empty), and where the
   * token's bytes sit in `#bytes` (start, length).
   */
  readonly #slots: Int32Array;
  readonly #mask: number;
  /**
   * One bit per value of a span hash's top {@link FILTER_BITS} bits (after mixing), set for each token: most spans
   * the merge probes are not tokens (~90% of the probes on long runs), and this half-megabyte answers them from
   * the CPU's cache instead of a miss in the megabytes of slots.
   */
  readonly #filter = new Int32Array(2 ** (FILTER_BITS - 5));

  /** An empty table for ranks `0..tokenCount - 1` (their bytes grow the store as they are added). */
  constructor(tokenCount: number) {
    this.tokenCount = tokenCount;
    this.#bytes = new Uint8Array(tokenCount * 8);
    let size = 1;
    while (size < tokenCount * 2) size *= 2;
    this.#slots = new Int32Array(size * SLOT_WIDTH);
    this.#mask = size - 1;
  }

  /** Adds the token `source[start..end)` with rank `rank` (each rank once, below the table's token count). */
  add(rank: number, source: Uint8Array, start: number, end: number): void {
    const length = end - start;
    if (!(rank >= 0 && rank < this.tokenCount) || length <= 0 || length >= MAX_SPAN) {
      throw new RangeError(`Token of ${length} bytes at rank ${rank} does not fit the table.`);
    }
    if (this.#bytes.length - this.#used < length) {
      const grown = new Uint8Array(this.#bytes.length * 2 + length);
      grown.set(this.#bytes.subarray(0, this.#used));
      this.#bytes = grown;
    }
    const tokenStart = this.#used;
    let hash = 0;
    for (let index = start; index < end; index += 1) {
      const byte = source[index] as number;
      this.#bytes[this.#used] = byte;
      this.#used += 1;
      hash = extendHash(hash, byte);
    }
    this.maxTokenBytes = Math.max(this.maxTokenBytes, length);
    if (length === 1) this.byteRanks[source[start] as number] = rank;
    const mixed = mixHash(hash);
    const bit = mixed >>> (32 - FILTER_BITS);
    this.#filter[bit >>> 5] = (this.#filter[bit >>> 5] as number) | (1 << (bit & 31));
    let slot = mixed & this.#mask;
    while (this.#slots[slot * SLOT_WIDTH + 1] !== 0) slot = (slot + 1) & this.#mask;
    const at = slot * SLOT_WIDTH;
    this.#slots[at] = hash;
    this.#slots[at + 1] = rank + 1;
    this.#slots[at + 2] = tokenStart;
    this.#slots[at + 3] = length;
  }

  /** The rank of the token whose bytes are `bytes[start..end)` (`hash` is their {@link spanHash}), or -1. */
  rank(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const length = end - start;
    if (length > this.maxTokenBytes) return -1;
    const mixed = mixHash(hash);
    const bit = mixed >>> (32 - FILTER_BITS);
    if (((this.#filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return -1;
    const slots = this.#slots;
    let slot = mixed & this.#mask;
    for (;;) {
      const at = slot * SLOT_WIDTH;
      const entry = slots[at + 1] as number;
      if (entry === 0) return -1;
      if (slots[at] === hash && slots[at + 3] === length) {
        const tokenBytes = this.#bytes;
        const tokenStart = slots[at + 2] as number;
        let index = 0;
        while (index < length && tokenBytes[tokenStart + index] === bytes[start + index]) index += 1;
        if (index === length) return entry - 1;
      }
      slot = (slot + 1) & this.#mask;
    }
  }
}

const SLOT_WIDTH = 4;

/** Bits of the filter's index: 2²² bits, 512 KiB; with o200k's 200,000 tokens about 5% of its bits are set. */
const FILTER_BITS = 22;

/** Spans of this many bytes or more are never hashed ({@link spanHash}'s table of powers ends there). */
const MAX_SPAN = 1024;

const HASH_MULTIPLIER = 0x01000193;

/** The hash of a byte sequence followed by `byte`, given the sequence's hash (the empty sequence's is 0). */
export function extendHash(hash: number, byte: number): number {
  return (Math.imul(hash, HASH_MULTIPLIER) + byte) | 0;
}

/** Powers of the hash multiplier, enough for any span that can be a token. */
const POWERS = (() => {
  const powers = new Int32Array(MAX_SPAN);
  powers[0] = 1;
  for (let index = 1; index < powers.length; index += 1) {
    powers[index] = Math.imul(powers[index - 1] as number, HASH_MULTIPLIER);
  }
  return powers;
})();

/**
 * The hash of `bytes[start..end)` from the prefix hashes of its array (`prefixHashes[i]` is the hash of the first
 * `i` bytes); `end - start` must be under 1,024 (every token is far shorter).
 */
export function spanHash(prefixHashes: Int32Array, start: number, end: number): number {
  return (
    ((prefixHashes[end] as number) -
      Math.imul(prefixHashes[start] as number, POWERS[end - start] as number)) |
    0
  );
}

/** Spreads a polynomial hash's bits over the low ones the table's mask keeps (murmur3's finalizer). */
function mixHash(hash: number): number {
  let mixed = hash ^ (hash >>> 16);
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  return mixed ^ (mixed >>> 16);
}
