import type { Chunk, ChunkInfo } from '../../core/chunk.js';
import type { EntryKind, EntryRecord, SessionInfo } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';

type Row = Record<string, unknown>;

/** The `entries` columns, in the order {@link entryValues} gives their values. */
export const ENTRY_COLUMNS = [
  'session',
  'name',
  'id',
  'turn',
  'step',
  'source',
  'kind',
  'media_type',
  'bytes',
  'chars',
  'lines',
  'sha256',
  'created_at',
  'updated_at',
  'expires_at',
  'pinned',
  'evictable',
  'version',
  'metadata',
  'content_id',
  'chunk_count',
] as const;

/** `session, name, …` for a SELECT list, each prefixed with `alias.` when given. */
export function entryColumns(alias?: string): string {
  return ENTRY_COLUMNS.map((column) => (alias ? `${alias}.${column}` : column)).join(', ');
}

/** `$from, $from+1, …` for the entry columns. */
export function entryPlaceholders(from = 1): string {
  return ENTRY_COLUMNS.map((_, index) => `$${from + index}`).join(', ');
}

/** The values of `record` in {@link ENTRY_COLUMNS} order. */
export function entryValues(record: EntryRecord): unknown[] {
  return [
    record.session,
    record.name,
    record.id,
    record.turn,
    record.step,
    record.source,
    record.kind,
    record.mediaType,
    record.bytes,
    record.chars,
    record.lines,
    record.sha256,
    record.createdAt,
    record.updatedAt,
    record.expiresAt,
    record.pinned,
    record.evictable,
    record.version,
    JSON.stringify(record.metadata),
    record.contentId,
    record.chunkCount,
  ];
}

/** Refuses text fields PostgreSQL cannot store (`text` holds no NUL), before anything is written. */
export function assertStorable(record: EntryRecord): void {
  const fields = { turn: record.turn, source: record.source, mediaType: record.mediaType };
  for (const [field, value] of Object.entries(fields)) {
    if (value?.includes('\u0000')) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `${field} contains a NUL character, which PostgreSQL cannot store.`,
        {
          hint: `Remove the NUL from ${field}.`,
          details: { field },
        },
      );
    }
  }
}

/** An `entries` row as a record. `bigint` columns arrive as strings (they may pass 2^31) and become numbers. */
export function toEntryRecord(row: Row): EntryRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    session: String(row.session),
    turn: row.turn === null ? null : String(row.turn),
    step: row.step === null ? null : Number(row.step),
    source: row.source === null ? null : String(row.source),
    kind: String(row.kind) as EntryKind,
    mediaType: String(row.media_type),
    bytes: Number(row.bytes),
    chars: Number(row.chars),
    lines: Number(row.lines),
    sha256: String(row.sha256),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    pinned: row.pinned === true,
    evictable: row.evictable === true,
    version: Number(row.version),
    // A caller's pool may not parse json; ours does.
    metadata: (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) as JsonObject,
    contentId: String(row.content_id),
    chunkCount: Number(row.chunk_count),
  };
}

/** A `chunks` row (without its bytes). */
export function toChunkInfo(row: Row): ChunkInfo {
  return {
    seq: Number(row.seq),
    byteStart: Number(row.byte_start),
    charStart: Number(row.char_start),
    lineStart: Number(row.line_start),
    bytes: Number(row.bytes),
    chars: Number(row.chars),
    newlines: Number(row.newlines),
  };
}

/** A `chunks` row joined with its `chunk_data`. */
export function toChunk(row: Row): Chunk {
  const data = row.data;
  if (!(data instanceof Uint8Array))
    throw new TypeError('Chunk data did not arrive as bytes: the pool must parse bytea.');
  return { ...toChunkInfo(row), data };
}

/** A `sessions` row with its entry totals. */
export function toSessionInfo(row: Row): SessionInfo {
  return {
    id: String(row.id),
    entries: Number(row.entries),
    bytes: Number(row.bytes),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
