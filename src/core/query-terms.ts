/**
 * Words of a search query: runs of letters, digits, combining marks (Thai vowel signs, Devanagari matras: part of
 * the word they are written in) and `_`, lowercased, deduplicated, at most 32. Everything else
 * is dropped, so no text a model sends can make a backend's query fail to parse. Every search (the scan, SQLite
 * FTS5, PostgreSQL) uses these words.
 */
export function queryTerms(query: string): string[] {
  const terms = query.toLowerCase().match(/[\p{L}\p{M}\p{N}_]+/gu) ?? [];
  return [...new Set(terms)].slice(0, 32);
}
