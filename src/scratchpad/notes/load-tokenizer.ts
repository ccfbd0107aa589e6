import { truncateToTokens } from './truncate-to-tokens.js';

/** Counts and truncates by tokens with one real BPE encoding. */
export interface NotesTokenizer {
  /** The BPE encoding used (`o200k_base`: GPT-4o and later; close to, not equal to, other vendors' counts). */
  readonly encoding: 'o200k_base';
  /** Tokens in `text`. Special-token strings such as `<|endoftext|>` count as plain text, never throw. */
  count(text: string): number;
  /** The longest prefix of `text` within `maxTokens` tokens, cut between characters (see {@link truncateToTokens}). */
  truncate(text: string, maxTokens: number): string;
}

let loading: Promise<NotesTokenizer> | undefined;

/**
 * Loads the tokenizer once per process. The encoding's rank table takes a few hundred milliseconds to load, so it
 * is imported on first use (not when the package is imported) and only the one encoding module is loaded.
 */
export function loadTokenizer(): Promise<NotesTokenizer> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (encoding) => {
      // Notes are user text: a literal "<|endoftext|>" in them is text, not a control token.
      const options = { disallowedSpecial: new Set<string>() };
      const count = (text: string): number => encoding.countTokens(text, options);
      return {
        encoding: 'o200k_base',
        count,
        truncate: (text: string, maxTokens: number) => truncateToTokens(text, maxTokens, count),
      };
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
