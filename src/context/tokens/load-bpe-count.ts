import { createRequire } from 'node:module';
import { cl100kWordEnd, o200kWordEnd } from './ascii-word-end.js';
import { createBpeCount } from './bpe-count.js';
import { readRankFile } from './read-rank-file.js';

/** The BPE encodings counted here: `o200k` (o200k_base, GPT-4o and later) and `cl100k` (cl100k_base, GPT-4). */
export type BpeEncodingName = 'o200k' | 'cl100k';

const RANK_FILES: Record<BpeEncodingName, string> = {
  o200k: 'gpt-tokenizer/data/o200k_base.tiktoken',
  cl100k: 'gpt-tokenizer/data/cl100k_base.tiktoken',
};

const loading = new Map<BpeEncodingName, Promise<(text: string) => number>>();

/**
 * The exact token count of one encoding ({@link createBpeCount} over the encoding's tiktoken rank file, which
 * gpt-tokenizer ships, and its pre-tokenizer pattern), loaded once per process on first use without holding the
 * event loop. A count holds the loop for its whole run (about 0.05 ms per KB), so callers feed it bounded pieces
 * (`tokenPieces`) and yield between them.
 */
export function loadBpeCount(name: BpeEncodingName): Promise<(text: string) => number> {
  let pending = loading.get(name);
  if (!pending) {
    pending = load(name).catch((error: unknown) => {
      loading.delete(name);
      throw error;
    });
    loading.set(name, pending);
  }
  return pending;
}

async function load(name: BpeEncodingName): Promise<(text: string) => number> {
  const rankFile = createRequire(import.meta.url).resolve(RANK_FILES[name]);
  const [table, patterns] = await Promise.all([
    readRankFile(rankFile),
    import('gpt-tokenizer/encodingParams/constants'),
  ]);
  return name === 'o200k'
    ? createBpeCount(table, patterns.O200K_TOKEN_SPLIT_REGEX, o200kWordEnd)
    : createBpeCount(table, patterns.CL100K_TOKEN_SPLIT_REGEX, cl100kWordEnd);
}
