import { tokenPieces } from '../../core/token-pieces.js';
import { loadBpeCount } from './load-bpe-count.js';
import { truncateToTokens } from './truncate-to-tokens.js';

/**
 * Counts and truncates by tokens with one real BPE encoding, in time linear in the text's length and without
 * holding the event loop: every count goes through {@link tokenPieces}, and the asynchronous methods give the loop
 * a turn every few milliseconds of work.
 */
export interface TokenCounter {
  /** The BPE encoding used (`o200k_base`: GPT-4o and later; close to, not equal to, other vendors' counts). */
  readonly encoding: 'o200k_base';
  /** Tokens in `text`. Special-token strings such as `<|endoftext|>` count as plain text, never throw. */
  count(text: string): Promise<number>;
  /**
   * {@link TokenCounter.count} without yielding: linear, but it holds the loop for its whole run (about 0.1 ms per
   * KB), so use it only for text of bounded size.
   */
  countSync(text: string): number;
  /**
   * The longest prefix of `text` within `maxTokens` tokens, cut between graphemes (see {@link truncateToTokens}),
   * found piece by piece: a 2 MB text costs one count, not one per probe.
   */
  truncate(text: string, maxTokens: number): Promise<string>;
}

/** How long a counting call may hold the event loop before it yields, in milliseconds. */
const SLICE_MS = 8;

let loading: Promise<TokenCounter> | undefined;

/**
 * Loads the token counter once per process. The encoding's rank table takes a few hundred milliseconds to load,
 * so it is imported on first use (not when the package is imported) and only the one encoding module is loaded.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= loadBpeCount('o200k').then(createTokenCounter, (error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Tokens in `text` (o200k_base), counted in linear time without blocking the event loop. */
export async function countTokens(text: string): Promise<number> {
  return (await loadTokenCounter()).count(text);
}

/** A {@link TokenCounter} over `countPiece`, which counts one bounded piece. */
function createTokenCounter(countPiece: (piece: string) => number): TokenCounter {
  const countSync = (text: string): number => {
    let total = 0;
    for (const piece of tokenPieces(text)) total += countPiece(piece);
    return total;
  };
  return {
    encoding: 'o200k_base',
    countSync,
    async count(text) {
      let total = 0;
      let sliceStart = performance.now();
      for (const piece of tokenPieces(text)) {
        total += countPiece(piece);
        if (performance.now() - sliceStart > SLICE_MS) {
          await yieldToLoop();
          sliceStart = performance.now();
        }
      }
      return total;
    },
    async truncate(text, maxTokens) {
      let kept = 0;
      let used = 0;
      let sliceStart = performance.now();
      for (const piece of tokenPieces(text)) {
        const tokens = countPiece(piece);
        if (used + tokens > maxTokens) {
          const cut = truncateToTokens(piece, maxTokens - used, countPiece).length;
          // Inside a later piece, a cut within its first grapheme would split a character sequence that the
          // kept prefix could have ended before.
          return text.slice(0, kept + (kept > 0 && cut < firstGraphemeLength(piece) ? 0 : cut));
        }
        used += tokens;
        kept += piece.length;
        if (performance.now() - sliceStart > SLICE_MS) {
          await yieldToLoop();
          sliceStart = performance.now();
        }
      }
      return text;
    },
  };
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function firstGraphemeLength(piece: string): number {
  return segmenter.segment(piece)[Symbol.iterator]().next().value?.segment.length ?? 0;
}

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
