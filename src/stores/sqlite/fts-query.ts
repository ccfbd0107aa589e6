import { queryTerms } from '../../core/query-terms.js';
import { segmentScripts } from '../../core/script-segments.js';

/**
 * Turns arbitrary text (a model's query) into a safe FTS5 query: its words (`queryTerms`, as every search uses),
 * each quoted as a string so no FTS5 syntax (`AND`, `NEAR`, `*`, `:`, `^`, parentheses, quotes) can be injected,
 * its CJK and Thai characters segmented as the index segments them (so such a word is a phrase of its characters),
 * joined with `OR` so an entry matches on any word and BM25 ranks entries with more of them higher (as the
 * scanning search does). Returns `undefined` when the text has no words.
 */
export function toFtsQuery(text: string): string | undefined {
  const terms = queryTerms(text).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${segmentScripts(term).replaceAll('"', '""')}"`).join(' OR ');
}
