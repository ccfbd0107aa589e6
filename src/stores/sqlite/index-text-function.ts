import { seamPrefix, segmentScripts } from '../../core/script-segments.js';
import type { SqliteDatabase } from './sqlite-database.js';

/** Name of the SQL function that gives the text a chunk's full-text index row holds. */
const INDEX_TEXT_FUNCTION = 'scratchpad_index_text';
/** Name of the SQL function that gives what the index row of the chunk after a chunk starts with. */
const SEAM_FUNCTION = 'scratchpad_seam';

/**
 * Registers the two functions the full-text index reads chunk text through (see `core/script-segments.ts`):
 * `scratchpad_index_text(seam, text)`, the text of a chunk's index row (`seam`, the end of the chunk before it,
 * then the chunk's text, with the characters of scripts written without spaces segmented one by one; NULL when
 * the chunk's text cannot be had), and `scratchpad_seam(text)`, the `seam` the chunk after a chunk of text `text`
 * is indexed with. Both are pure, so un-indexing a row (FTS5 replays its text) removes exactly what was indexed.
 */
export function registerIndexTextFunctions(database: SqliteDatabase): void {
  // Two declared parameters: the SQL function's arity is the implementation's length.
  const indexText = (seam: unknown, text: unknown): string | null =>
    typeof text === 'string' ? segmentScripts((typeof seam === 'string' ? seam : '') + text) : null;
  const seam = (text: unknown): string | null => (typeof text === 'string' ? seamPrefix(text) : null);
  database.function(
    INDEX_TEXT_FUNCTION,
    { deterministic: true },
    indexText as (...parameters: unknown[]) => unknown,
  );
  database.function(SEAM_FUNCTION, { deterministic: true }, seam as (...parameters: unknown[]) => unknown);
}
