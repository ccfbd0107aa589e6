import type { BlobDirectory } from './blob-directory.js';
import type { SqliteDatabase } from './sqlite-database.js';

/** Name of the SQL function that reads a chunk's text from a side file. */
export const CHUNK_TEXT_FUNCTION = 'scratchpad_chunk_text';

/**
 * Registers `scratchpad_chunk_text(file name, offset, bytes)` on the connection: the text of a chunk stored in a
 * side file, for the full-text index (indexing, un-indexing and FTS5 snippets read chunk text through SQL, see
 * `CHUNK_TEXT` in `sqlite-schema.ts`). Returns NULL when the file is missing or ends early, so indexing and
 * un-indexing stay consistent with each other and deleting an entry whose file was lost still works; reads of
 * that content report `STORE_CORRUPT`. Without a side-file directory (`:memory:`), no chunk is external and the
 * function is never called with a name.
 */
export function registerChunkTextFunction(database: SqliteDatabase, blobs: BlobDirectory | undefined): void {
  // Three declared parameters: better-sqlite3 takes the SQL function's arity from the implementation's length.
  const chunkText = (name: unknown, offset: unknown, bytes: unknown): string | null => {
    if (!blobs || typeof name !== 'string' || typeof offset !== 'number' || typeof bytes !== 'number') {
      return null;
    }
    const data = blobs.readRange(name, offset, bytes);
    if (!data || data.byteLength !== bytes) return null;
    return data.toString('utf8');
  };
  database.function(
    CHUNK_TEXT_FUNCTION,
    { deterministic: false },
    chunkText as (...parameters: unknown[]) => unknown,
  );
}
