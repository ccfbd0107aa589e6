import { ScratchpadError } from '../../core/errors.js';
import { tokenPieces } from '../../core/token-pieces.js';
import type { CountTokens } from './estimate-tokens.js';
import { loadBpeCount } from './load-bpe-count.js';

/** The BPE encodings a threshold or budget can be given in: `o200k` (GPT-4o and later), `cl100k` (GPT-4, GPT-3.5). */
export type TokenizerName = 'o200k' | 'cl100k';

/** A named encoding, or the host's own count (a vendor's tokenizer, a model's `countTokens`). */
export type TokenizerSpec = TokenizerName | CountTokens;

/** Exact token counts with one tokenizer. */
export interface Tokenizer {
  /** `o200k`, `cl100k`, or `custom` for a host function. */
  readonly name: TokenizerName | 'custom';
  /** Tokens in `text`, in linear time (see `tokenPieces`); holds the loop about 0.1 ms per KB. */
  count: CountTokens;
  /**
   * Tokens in `text` counted only until they pass `limit` (then some number above it): deciding "over the
   * threshold?" costs O(threshold), not O(text), for a named encoding.
   */
  countUpTo(text: string, limit: number): number;
}

const loading = new Map<TokenizerName, Promise<Tokenizer>>();

/**
 * The tokenizer for `spec`, its rank table imported on first use (a few hundred milliseconds, once per process).
 * Every count goes piece by piece through `tokenPieces` (see `loadBpeCount`), as the notes' `loadTokenCounter`
 * does, so any text costs linear time.
 */
export function loadTokenizer(spec: TokenizerSpec): Promise<Tokenizer> {
  if (typeof spec === 'function') {
    return Promise.resolve({ name: 'custom', count: spec, countUpTo: (text) => spec(text) });
  }
  if (spec !== 'o200k' && spec !== 'cl100k') {
    return Promise.reject(
      new ScratchpadError('CONFIG_INVALID', `Unknown tokenizer ${JSON.stringify(spec)}.`, {
        hint: 'Use "o200k", "cl100k", or a function (text) => number.',
      }),
    );
  }
  let pending = loading.get(spec);
  if (!pending) {
    pending = loadBpeCount(spec).then(
      (countPiece) => piecewise(spec, countPiece),
      (error: unknown) => {
        loading.delete(spec);
        throw error;
      },
    );
    loading.set(spec, pending);
  }
  return pending;
}

function piecewise(name: TokenizerName, countPiece: (piece: string) => number): Tokenizer {
  const countUpTo = (text: string, limit: number): number => {
    let total = 0;
    for (const piece of tokenPieces(text)) {
      total += countPiece(piece);
      if (total > limit) return total;
    }
    return total;
  };
  return { name, count: (text) => countUpTo(text, Number.POSITIVE_INFINITY), countUpTo };
}
