/** Terms longer than this are cut: FTS5 tokens are words, and a model's query is not a document. */
const MAX_TERMS = 32;

/**
 * Turns arbitrary text (a model's query) into a safe FTS5 query: its words (runs of letters, digits and marks),
 * each quoted as a string so no FTS5 syntax (`AND`, `NEAR`, `*`, `:`, `^`, parentheses, quotes) can be injected,
 * joined with `OR` so an entry matches on any word and BM25 ranks entries with more of them higher (as the
 * scanning search does). Returns `undefined` when the text has no words.
 */
export function toFtsQuery(text: string): string | undefined {
  const words = text.toLowerCase().match(/[\p{L}\p{N}\p{M}_]+/gu) ?? [];
  const terms = [...new Set(words)].filter((word) => /[\p{L}\p{N}]/u.test(word)).slice(0, MAX_TERMS);
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}
