/**
 * A synchronous token count of one text: pure, the same text always gives the same count. Compaction and budgets
 * take one; {@link estimateTokens} is the default, `(await loadTokenCounter()).countSync` counts o200k tokens exactly.
 */
export type CountTokens = (text: string) => number;

/** The common 4-characters-per-token estimate (UTF-16 code units / 4, rounded up): cheap, and wrong on code and non-English text. */
export const estimateTokens: CountTokens = (text) => Math.ceil(text.length / 4);
