import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { splitContentId } from './fs-layout.js';

/** The record as written to `NAME.json`: only the known fields, in a fixed order, indented for people who look. */
export function serializeRecord(record: EntryRecord): string {
  const clean: EntryRecord = {
    id: record.id,
    name: record.name,
    session: record.session,
    turn: record.turn,
    step: record.step,
    source: record.source,
    kind: record.kind,
    mediaType: record.mediaType,
    bytes: record.bytes,
    chars: record.chars,
    lines: record.lines,
    sha256: record.sha256,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    expiresAt: record.expiresAt,
    pinned: record.pinned,
    evictable: record.evictable,
    version: record.version,
    metadata: record.metadata,
    contentId: record.contentId,
    chunkCount: record.chunkCount,
  };
  return `${JSON.stringify(clean, null, 2)}\n`;
}

/**
 * Parses a record file and checks every field, so a damaged or hand-edited file surfaces as `STORE_CORRUPT`
 * (naming the file) instead of as wrong reads later.
 */
export function parseRecord(text: string, path: string): EntryRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt(path, 'it is not valid JSON', error);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw corrupt(path, 'it is not a JSON object');
  const record = value as Record<string, unknown>;
  const problem = firstProblem(record);
  if (problem) throw corrupt(path, problem);
  splitContentId(record.contentId as string);
  // Records written before entries could be evictable have no field: they were written, so they stay.
  if (record.evictable === undefined) record.evictable = false;
  return record as unknown as EntryRecord;
}

function firstProblem(record: Record<string, unknown>): string | undefined {
  const isString = (key: string): boolean => typeof record[key] === 'string';
  const isCount = (key: string): boolean => Number.isSafeInteger(record[key]) && (record[key] as number) >= 0;
  const isTime = (key: string): boolean => typeof record[key] === 'number' && Number.isFinite(record[key]);
  const orNull = (key: string, check: (key: string) => boolean): boolean =>
    record[key] === null || check(key);
  for (const key of ['id', 'name', 'session', 'mediaType', 'sha256', 'contentId']) {
    if (!isString(key)) return `"${key}" is not a string`;
  }
  for (const key of ['turn', 'source'])
    if (!orNull(key, isString)) return `"${key}" is neither a string nor null`;
  if (!orNull('step', isCount)) return '"step" is neither a count nor null';
  if (record.kind !== 'text' && record.kind !== 'binary') return '"kind" is neither "text" nor "binary"';
  for (const key of ['bytes', 'chars', 'lines', 'chunkCount'])
    if (!isCount(key)) return `"${key}" is not a count`;
  if (!isCount('version') || (record.version as number) < 1) return '"version" is not a positive integer';
  for (const key of ['createdAt', 'updatedAt']) if (!isTime(key)) return `"${key}" is not a time`;
  if (!orNull('expiresAt', isTime)) return '"expiresAt" is neither a time nor null';
  if (typeof record.pinned !== 'boolean') return '"pinned" is not a boolean';
  if (record.evictable !== undefined && typeof record.evictable !== 'boolean')
    return '"evictable" is not a boolean';
  const metadata = record.metadata as JsonObject | null;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    return '"metadata" is not an object';
  return undefined;
}

function corrupt(path: string, why: string, cause?: unknown): ScratchpadError {
  return new ScratchpadError('STORE_CORRUPT', `The entry record ${path} is damaged: ${why}.`, {
    hint: 'Restore the file from a backup, or delete the entry (remove the record file) and write it again.',
    details: { path },
    ...(cause === undefined ? {} : { cause }),
  });
}
