import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';

/** An `entries` row as SQLite returns it. */
export interface EntryRow {
  session: string;
  name: string;
  id: string;
  turn: string | null;
  step: number | null;
  source: string | null;
  kind: 'text' | 'binary';
  media_type: string;
  bytes: number;
  chars: number;
  lines: number;
  sha256: string;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  pinned: number;
  evictable: number;
  version: number;
  metadata: string;
  content: number;
  chunk_count: number;
}

/** The columns of {@link EntryRow}, in order, for `SELECT` lists. */
export const ENTRY_COLUMNS =
  'session, name, id, turn, step, source, kind, media_type, bytes, chars, lines, sha256, created_at, updated_at, ' +
  'expires_at, pinned, evictable, version, metadata, content, chunk_count';

/** Named parameters (`@session`, …) for inserting or updating a row from a record. */
export function entryParameters(record: EntryRecord): Record<string, string | number | null> {
  return {
    session: record.session,
    name: record.name,
    id: record.id,
    turn: record.turn,
    step: record.step,
    source: record.source,
    kind: record.kind,
    media_type: record.mediaType,
    bytes: record.bytes,
    chars: record.chars,
    lines: record.lines,
    sha256: record.sha256,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    expires_at: record.expiresAt,
    pinned: record.pinned ? 1 : 0,
    evictable: record.evictable ? 1 : 0,
    version: record.version,
    metadata: JSON.stringify(record.metadata),
    content: contentKey(record.contentId),
    chunk_count: record.chunkCount,
  };
}

/** The record a row stores. */
export function toEntryRecord(row: EntryRow): EntryRecord {
  return {
    id: row.id,
    name: row.name,
    session: row.session,
    turn: row.turn,
    step: row.step,
    source: row.source,
    kind: row.kind,
    mediaType: row.media_type,
    bytes: row.bytes,
    chars: row.chars,
    lines: row.lines,
    sha256: row.sha256,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    pinned: row.pinned !== 0,
    evictable: row.evictable !== 0,
    version: row.version,
    metadata: parseMetadata(row),
    contentId: String(row.content),
    chunkCount: row.chunk_count,
  };
}

/** The integer key of a content id (content ids are the decimal `contents.id`). */
export function contentKey(contentId: string): number {
  const key = Number(contentId);
  if (!Number.isSafeInteger(key) || key <= 0)
    throw new Error(`Not a SQLite content id: ${JSON.stringify(contentId)}`);
  return key;
}

function parseMetadata(row: EntryRow): JsonObject {
  try {
    return JSON.parse(row.metadata) as JsonObject;
  } catch (error) {
    throw new ScratchpadError(
      'STORE_CORRUPT',
      `The metadata of entry "${row.name}" in session "${row.session}" is not valid JSON.`,
      {
        hint: 'The row was changed outside llm-scratchpad; fix or delete it with the sqlite3 shell.',
        details: { session: row.session, name: row.name },
        cause: error,
      },
    );
  }
}
