import { decodeChunkBytes } from '../chunk-codec.js';
import type { BlobDirectory } from './blob-directory.js';
import { registerIndexTextFunctions } from './index-text-function.js';
import type { SqliteDatabase } from './sqlite-database.js';

/** Name of the SQL function that reads a chunk's text wherever and however it is stored. */
const CHUNK_BODY_FUNCTION = 'scratchpad_chunk_body';

/**
 * Registers `scratchpad_chunk_body(codec, data, file name, file offset, stored bytes, bytes)` on the connection:
 * the text of a chunk whose bytes are inline (`data`) or in a side file, compressed or not, for the full-text
 * index (indexing, un-indexing and FTS5 snippets read chunk text through SQL, see `CHUNK_TEXT` in `sqlite-schema.ts`).
 * It decompresses with `decodeChunkBytes`, the one function every read of chunk bytes goes through. Returns NULL
 * when the bytes cannot be had (a missing or short side file, a codec this Node lacks, damaged bytes), so
 * indexing and un-indexing stay consistent with each other and deleting such an entry still works; reads of
 * that content report the error itself.
 *
 * Also registers the functions the index rows read that text through (`registerIndexTextFunctions`): the
 * `search_source` view needs all three.
 */
export function registerChunkTextFunction(database: SqliteDatabase, blobs: BlobDirectory | undefined): void {
  // Six declared parameters: the SQL function's arity is the implementation's length.
  const chunkBody = (
    codec: unknown,
    data: unknown,
    name: unknown,
    offset: unknown,
    storedBytes: unknown,
    bytes: unknown,
  ): string | null => readChunkText(blobs, { codec, data, name, offset, storedBytes, bytes });
  database.function(
    CHUNK_BODY_FUNCTION,
    { deterministic: false },
    chunkBody as (...parameters: unknown[]) => unknown,
  );
  registerIndexTextFunctions(database);
}

/** Where a chunk's bytes are, as the columns of {@link CHUNK_PLACE_COLUMNS} give it. */
export interface ChunkPlace {
  codec: unknown;
  data: unknown;
  name: unknown;
  offset: unknown;
  storedBytes: unknown;
  bytes: unknown;
}

/** The columns (over `chunks` and the joins of `CHUNK_TEXT`) that make a {@link ChunkPlace}. */
export const CHUNK_PLACE_COLUMNS =
  'chunks.codec AS codec, chunk_data.data AS data, blob_files.name AS name, chunks.file_offset AS offset, ' +
  'coalesce(chunks.stored_bytes, chunks.bytes) AS storedBytes, chunks.bytes AS bytes';

/**
 * The text of the chunk at `place`, inline or in a side file, compressed or not; `null` when its bytes cannot be
 * had (a missing or short side file, a codec this Node lacks, damaged bytes). Read in JavaScript, a 256 KiB chunk's
 * text does not cross into SQLite and back as it does through the SQL function.
 */
export function readChunkText(blobs: BlobDirectory | undefined, place: ChunkPlace): string | null {
  return readChunkBytes(blobs, place)?.toString('utf8') ?? null;
}

/** The bytes of the chunk at `place`, decompressed; `null` when they cannot be had (as {@link readChunkText}). */
export function readChunkBytes(blobs: BlobDirectory | undefined, place: ChunkPlace): Buffer | null {
  const { codec, data, name, offset, storedBytes, bytes } = place;
  if (typeof codec !== 'number' || typeof storedBytes !== 'number' || typeof bytes !== 'number') return null;
  let stored: Uint8Array | undefined;
  if (data instanceof Uint8Array) stored = data;
  else if (blobs && typeof name === 'string' && typeof offset === 'number') {
    stored = blobs.readRange(name, offset, storedBytes);
  }
  if (!stored || stored.byteLength !== storedBytes) return null;
  try {
    return decodeChunkBytes(codec, stored, bytes, { where: 'the search index', seq: 0 });
  } catch {
    return null;
  }
}
