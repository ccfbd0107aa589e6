import type { AsciiWordEnd } from './ascii-word-end.js';
import { type BpeRankTable, extendHash, spanHash } from './bpe-rank-table.js';

/**
 * Counts the tokens of a text the way tiktoken encodes it (the same pre-tokenizer pattern and byte-pair merges, so
 * the same count), without building the tokens: each pre-token's bytes merge in O(n log n) (a min tree over the
 * candidate pairs, each span's rank found by hash in {@link BpeRankTable}) where gpt-tokenizer's merge rescans and
 * slices the whole word on every step, O(n²) with a string per probe.
 *
 * Words are found by `asciiWordEnd` (the split pattern decided by hand from character codes) wherever ASCII
 * decides them, and by `splitPattern` elsewhere: on a log the pattern was ~90% of the count's time. A word is
 * counted from the text in place (no substring) unless its count is looked up in the word cache.
 *
 * Special-token strings (`<|endoftext|>`) count as the text they are, as gpt-tokenizer counts them with
 * `disallowedSpecial` empty.
 */
export function createBpeCount(
  table: BpeRankTable,
  splitPattern: RegExp,
  asciiWordEnd: AsciiWordEnd,
): (text: string) => number {
  const merger = new PairMerger(table);
  const encoder = new TextEncoder();
  const wordCounts = new Map<string, number>();
  let cachedCharacters = 0;
  const pattern = new RegExp(splitPattern.source, 'gu');
  let bytes = new Uint8Array(1024);
  let prefixHashes = new Int32Array(1025);

  /** The token count of the word `text[start..end)`. */
  const countWord = (text: string, start: number, end: number): number => {
    const characters = end - start;
    if (bytes.length < characters * 3) {
      bytes = new Uint8Array(characters * 3);
      prefixHashes = new Int32Array(characters * 3 + 1);
    }
    let length = 0;
    let hash = 0;
    for (; length < characters; length += 1) {
      const code = text.charCodeAt(start + length);
      if (code >= 0x80) break;
      bytes[length] = code;
      hash = extendHash(hash, code);
      prefixHashes[length + 1] = hash;
    }
    // The word as a string, once it is needed (to encode a non-ASCII word, as the cache's key).
    let word: string | undefined;
    if (length < characters) {
      word = text.slice(start, end);
      length = encoder.encodeInto(word, bytes).written;
      hash = 0;
      for (let index = 0; index < length; index += 1) {
        hash = extendHash(hash, bytes[index] as number);
        prefixHashes[index + 1] = hash;
      }
    }
    if (table.rank(bytes, 0, length, hash) >= 0) return 1;
    if (characters < CACHED_WORD_MIN || characters > CACHED_WORD_MAX) {
      return merger.count(bytes, length, prefixHashes);
    }
    word ??= text.slice(start, end);
    const known = wordCounts.get(word);
    if (known !== undefined) return known;
    const count = merger.count(bytes, length, prefixHashes);
    if (cachedCharacters > WORD_CACHE_CHARACTERS) {
      wordCounts.clear();
      cachedCharacters = 0;
    }
    wordCounts.set(word, count);
    cachedCharacters += characters;
    return count;
  };

  return (text) => {
    let total = 0;
    let start = 0;
    while (start < text.length) {
      let end = asciiWordEnd(text, start);
      if (end < 0) {
        pattern.lastIndex = start;
        const match = pattern.exec(text);
        if (match === null) break;
        start = match.index;
        end = start + match[0].length;
      }
      total += countWord(text, start, end);
      start = end;
    }
    return total;
  };
}

/**
 * Characters of words whose counts are remembered (prose repeats its words, a long run repeats its pieces); the
 * cache is dropped whole when full.
 */
const WORD_CACHE_CHARACTERS = 2_000_000;

/** Longer words are not remembered (a piece of a long run is at most `TOKEN_RUN_LIMIT` characters). */
const CACHED_WORD_MAX = 1024;

/**
 * Shorter words are merged again each time: merging a few bytes (its pairs mostly answered by the pair cache)
 * costs less than hashing the word's string into a map of hundreds of thousands of words.
 */
const CACHED_WORD_MIN = 8;

/** A pair whose rank has not been looked up yet. */
const UNKNOWN_RANK = -2;

/** Slots of the pair cache (a power of two). */
const PAIR_CACHE_SIZE = 1 << 16;

/** Pair cache keys are `left × PAIR_SCALE + right`, exact while ranks stay below it. */
const PAIR_SCALE = 2 ** 21;

/**
 * In words under {@link NARROW_SCALE} bytes (every piece `tokenPieces` cuts), the merge tree's keys are one
 * `Int32Array` integer, `rank × NARROW_SCALE + part`: lower rank first, then the leftmost part, in one comparison
 * (a `Float64Array` of `rank × 2³² + part` made a long run's count ~10% slower). Longer words key by rank alone
 * and find the leftmost pair of the lowest rank by walking down the tree.
 */
const NARROW_BITS = 13;
const NARROW_SCALE = 2 ** NARROW_BITS;

/**
 * Words of at most this many bytes merge by scanning their pairs for the lowest rank (tiktoken's loop, O(n²)):
 * for a few bytes a scan costs less than building and updating a tree.
 */
const SCANNED_WORD_MAX = 12;

/**
 * The byte-pair merge of one word, counting the parts left. Parts are a linked list over byte offsets (a part is
 * named by its first byte, `partRanks[i]` is its token's rank); `pairRanks[i]` is the rank of part `i` merged with
 * the next one (-1: not a token). Each merge is of the pair with the lowest rank, the leftmost of equals (as
 * tiktoken's merge loop picks): found by a scan in short words, in longer ones at the root of a min tree over the
 * pairs (a leaf per byte offset, each inner node the lowest key below it). A merge changes at most three leaves
 * (the absorbed part's pair is gone, the merged part's and the one before it are new) and each update climbs only
 * while the minimum changes: no stale entries, where a heap with lazy deletion popped twice as many entries as it
 * merged (a long run of lower-case letters: 2.2 M pops for 1.0 M merges) and sifted each through its depth.
 *
 * Every part is a token, so the rank of a merge depends only on the two parts' ranks: a direct-mapped cache keyed
 * by the pair answers most probes from a few hundred kilobytes instead of the rank table's megabytes (a long run
 * repeats the same pairs; the cache stays across words).
 */
class PairMerger {
  readonly #table: BpeRankTable;
  #next = new Int32Array(0);
  #previous = new Int32Array(0);
  #partRanks = new Int32Array(0);
  #pairRanks = new Int32Array(0);
  #tree = new Int32Array(0);
  readonly #pairKeys = new Float64Array(PAIR_CACHE_SIZE).fill(-1);
  readonly #pairValues = new Int32Array(PAIR_CACHE_SIZE);
  /** The rank of each pair of bytes (`first << 8 | second`), filled as pairs are met: every word starts with them. */
  readonly #bytePairRanks = new Int32Array(1 << 16).fill(UNKNOWN_RANK);

  constructor(table: BpeRankTable) {
    if (table.tokenCount > PAIR_SCALE) throw new RangeError('Too many ranks for the pair cache.');
    if (table.tokenCount * NARROW_SCALE >= NO_PAIR)
      throw new RangeError('Too many ranks for the merge tree.');
    this.#table = table;
  }

  /** The number of tokens `bytes[0..length)` encodes to; `prefixHashes` holds the hashes of its prefixes. */
  count(bytes: Uint8Array, length: number, prefixHashes: Int32Array): number {
    if (length <= 1) return length;
    if (this.#next.length < length + 1) this.#grow(length + 1);
    const next = this.#next;
    const previous = this.#previous;
    const partRanks = this.#partRanks;
    const pairRanks = this.#pairRanks;
    for (let index = 0; index < length; index += 1) {
      next[index] = index + 1;
      previous[index] = index - 1;
      partRanks[index] = this.#table.byteRanks[bytes[index] as number] as number;
    }
    pairRanks[length - 1] = -1;
    const bytePairRanks = this.#bytePairRanks;
    for (let index = 0; index + 1 < length; index += 1) {
      const pair = ((bytes[index] as number) << 8) | (bytes[index + 1] as number);
      let rank = bytePairRanks[pair] as number;
      if (rank === UNKNOWN_RANK) {
        rank = this.#table.rank(bytes, index, index + 2, spanHash(prefixHashes, index, index + 2));
        bytePairRanks[pair] = rank;
      }
      pairRanks[index] = rank;
    }
    return length <= SCANNED_WORD_MAX
      ? this.#mergeByScan(bytes, length, prefixHashes)
      : this.#mergeByTree(bytes, length, prefixHashes);
  }

  #mergeByScan(bytes: Uint8Array, length: number, prefixHashes: Int32Array): number {
    const next = this.#next;
    const pairRanks = this.#pairRanks;
    let parts = length;
    for (;;) {
      let best = -1;
      let bestRank = PAIR_SCALE;
      for (let part = 0; part < length; part = next[part] as number) {
        const rank = pairRanks[part] as number;
        if (rank >= 0 && rank < bestRank) {
          bestRank = rank;
          best = part;
        }
      }
      if (best < 0) return parts;
      this.#merge(best, bestRank, length);
      parts -= 1;
      this.#rankPair(bytes, length, prefixHashes, best);
      const before = this.#previous[best] as number;
      if (before >= 0) this.#rankPair(bytes, length, prefixHashes, before);
    }
  }

  #mergeByTree(bytes: Uint8Array, length: number, prefixHashes: Int32Array): number {
    const pairRanks = this.#pairRanks;
    const previous = this.#previous;
    const next = this.#next;
    // Keys are `rank × NARROW_SCALE + part` in a word of fewer bytes than that, else the rank alone.
    const keyed = length < NARROW_SCALE;
    const scale = keyed ? NARROW_SCALE : 1;
    const partMask = keyed ? NARROW_SCALE - 1 : 0;
    let leaves = 1;
    while (leaves < length) leaves *= 2;
    const tree = this.#treeFor(leaves);
    for (let part = 0; part < leaves; part += 1) {
      const rank = part < length ? (pairRanks[part] as number) : -1;
      tree[leaves + part] = rank >= 0 ? rank * scale + (part & partMask) : NO_PAIR;
    }
    for (let node = leaves - 1; node >= 1; node -= 1) {
      tree[node] = Math.min(tree[2 * node] as number, tree[2 * node + 1] as number);
    }
    let parts = length;
    for (;;) {
      const key = tree[1] as number;
      if (key === NO_PAIR) return parts;
      let rank = key;
      let part = 0;
      if (keyed) {
        rank = key >> NARROW_BITS;
        part = key & partMask;
      } else {
        // The leftmost pair of that rank: down from the root, left wherever the left subtree holds it.
        let node = 1;
        while (node < leaves) {
          node *= 2;
          if (tree[node] !== rank) node += 1;
        }
        part = node - leaves;
      }
      const absorbed = next[part] as number;
      this.#merge(part, rank, length);
      parts -= 1;
      setLeaf(tree, leaves, absorbed, NO_PAIR);
      const merged = this.#rankPair(bytes, length, prefixHashes, part);
      setLeaf(tree, leaves, part, merged ? (pairRanks[part] as number) * scale + (part & partMask) : NO_PAIR);
      const before = previous[part] as number;
      if (before >= 0) {
        const joined = this.#rankPair(bytes, length, prefixHashes, before);
        setLeaf(
          tree,
          leaves,
          before,
          joined ? (pairRanks[before] as number) * scale + (before & partMask) : NO_PAIR,
        );
      }
    }
  }

  /** Merges part `part` with the next one into the token of rank `rank`. */
  #merge(part: number, rank: number, length: number): void {
    const next = this.#next;
    const absorbed = next[part] as number;
    const after = next[absorbed] as number;
    next[part] = after;
    if (after < length) this.#previous[after] = part;
    this.#pairRanks[absorbed] = -1;
    this.#partRanks[part] = rank;
  }

  /** Sets the rank of part `part` merged with the part after it; whether that is a token. */
  #rankPair(bytes: Uint8Array, length: number, prefixHashes: Int32Array, part: number): boolean {
    const middle = this.#next[part] as number;
    let rank = -1;
    if (middle < length) {
      const end = this.#next[middle] as number;
      const left = this.#partRanks[part] as number;
      const right = this.#partRanks[middle] as number;
      if (end - part > this.#table.maxTokenBytes) {
        rank = -1;
      } else if (left >= 0 && right >= 0) {
        const key = left * PAIR_SCALE + right;
        const slot = pairSlot(left, right);
        if (this.#pairKeys[slot] === key) {
          rank = this.#pairValues[slot] as number;
        } else {
          rank = this.#table.rank(bytes, part, end, spanHash(prefixHashes, part, end));
          this.#pairKeys[slot] = key;
          this.#pairValues[slot] = rank;
        }
      } else {
        rank = this.#table.rank(bytes, part, end, spanHash(prefixHashes, part, end));
      }
    }
    this.#pairRanks[part] = rank;
    return rank >= 0;
  }

  #grow(capacity: number): void {
    this.#partRanks = new Int32Array(capacity);
    this.#next = new Int32Array(capacity);
    this.#previous = new Int32Array(capacity);
    this.#pairRanks = new Int32Array(capacity);
  }

  /** The merge tree's array for `leaves` leaves (grown, never shrunk). */
  #treeFor(leaves: number): Int32Array {
    if (this.#tree.length < 2 * leaves) this.#tree = new Int32Array(2 * leaves);
    return this.#tree;
  }
}

function pairSlot(left: number, right: number): number {
  let mixed = Math.imul(left, 0x9e3779b1) ^ right;
  mixed ^= mixed >>> 15;
  mixed = Math.imul(mixed, 0x85ebca6b);
  return (mixed ^ (mixed >>> 13)) & (PAIR_CACHE_SIZE - 1);
}

/** The key of a tree leaf without a pair (above every other key). */
const NO_PAIR = 0x7fffffff;

/**
 * Sets leaf `part` of a min tree (`tree[1]` its root, `tree[leaves + i]` leaf `i`, node `n`'s children `2n` and
 * `2n + 1`) to `key`, and its ancestors to the lowest key below them, stopping where one does not change.
 */
function setLeaf(tree: Int32Array, leaves: number, part: number, key: number): void {
  let node = leaves + part;
  if (tree[node] === key) return;
  tree[node] = key;
  while (node > 1) {
    const sibling = tree[node ^ 1] as number;
    node >>= 1;
    const lowest = Math.min(key, sibling);
    if (tree[node] === lowest) return;
    tree[node] = lowest;
    key = lowest;
  }
}
