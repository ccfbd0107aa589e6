import { randomBytes } from 'node:crypto';
import type { ChunkInfo } from '../core/chunk.js';
import type { EntryRecord, SessionInfo } from '../core/entry.js';
import type { CommitRequest, ListPosition, ListQuery, SweepResult } from './driver.js';

/** Shared helpers for driver implementations (not part of the public API). */

/** A new staging/content id: 24 hex characters. */
export function newStagingId(): string {
  return randomBytes(12).toString('hex');
}

/** Whether `current` (the entry as stored, `undefined` when there is none) is the one `request` expects. */
export function isExpectedEntry(current: EntryRecord | undefined, request: CommitRequest): boolean {
  if (current === undefined) return request.expectedVersion === null;
  return (
    current.version === request.expectedVersion &&
    (request.expectedId === undefined || current.id === request.expectedId)
  );
}

/** Where content made of `kept` chunks ends, on every axis. */
export function endOf(kept: readonly ChunkInfo[]): {
  seq: number;
  byteStart: number;
  charStart: number;
  lineStart: number;
} {
  const last = kept[kept.length - 1];
  if (!last) return { seq: 0, byteStart: 0, charStart: 0, lineStart: 0 };
  return {
    seq: last.seq + 1,
    byteStart: last.byteStart + last.bytes,
    charStart: last.charStart + last.chars,
    lineStart: last.lineStart + last.newlines,
  };
}

/** Shifts staged chunks (offsets from 0) so they follow `kept`. */
export function rebaseChunks<T extends ChunkInfo>(kept: readonly ChunkInfo[], staged: readonly T[]): T[] {
  const base = endOf(kept);
  return staged.map((chunk) => ({
    ...chunk,
    seq: base.seq + chunk.seq,
    byteStart: base.byteStart + chunk.byteStart,
    charStart: base.charStart + chunk.charStart,
    lineStart: base.lineStart + chunk.lineStart,
  }));
}

/** True when `record` passes every filter of `query`. */
export function matchesQuery(record: EntryRecord, query: ListQuery): boolean {
  if (query.session !== undefined && record.session !== query.session) return false;
  if (query.turn !== undefined && record.turn !== query.turn) return false;
  if (query.pinned !== undefined && record.pinned !== query.pinned) return false;
  if (query.prefix !== undefined && !record.name.startsWith(query.prefix)) return false;
  if (query.expiredAt !== undefined && (record.expiresAt === null || record.expiresAt > query.expiredAt))
    return false;
  if (
    query.liveAt !== undefined &&
    !record.pinned &&
    record.expiresAt !== null &&
    record.expiresAt <= query.liveAt
  )
    return false;
  if (query.after !== undefined && !comesAfter(record, query.orderBy ?? 'name', query.after)) return false;
  return true;
}

/** True when `record` lists after `position` in `orderBy` (the keyset condition every driver applies). */
function comesAfter(
  record: EntryRecord,
  orderBy: NonNullable<ListQuery['orderBy']>,
  position: ListPosition,
): boolean {
  if (orderBy !== 'name') {
    const at = position.at ?? Number.NEGATIVE_INFINITY;
    if (record[orderBy] !== at) return record[orderBy] > at;
  }
  return record.name > position.name;
}

/**
 * The smallest string above every string that starts with `prefix` (`undefined` for ""), so a prefix filter can
 * be an index range `name >= prefix AND name < upper`. Names are ASCII, so code-unit and byte order agree.
 */
export function prefixUpperBound(prefix: string): string | undefined {
  if (prefix.length === 0) return undefined;
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** Sorts by the list order; ties break on session then name so every backend lists identically. */
export function sortRecords(
  records: EntryRecord[],
  orderBy: NonNullable<ListQuery['orderBy']>,
): EntryRecord[] {
  const byName = (a: EntryRecord, b: EntryRecord): number =>
    a.session < b.session ? -1 : a.session > b.session ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  if (orderBy === 'name') return records.sort(byName);
  return records.sort((a, b) => a[orderBy] - b[orderBy] || byName(a, b));
}

/** Session summaries from session rows and the entries in them. */
export function sessionInfos(
  sessions: Map<string, { createdAt: number; updatedAt: number }>,
  records: Iterable<EntryRecord>,
): SessionInfo[] {
  const totals = new Map<string, { entries: number; bytes: number }>();
  for (const record of records) {
    const total = totals.get(record.session) ?? { entries: 0, bytes: 0 };
    total.entries++;
    total.bytes += record.bytes;
    totals.set(record.session, total);
  }
  return [...sessions]
    .map(([id, times]) => ({
      id,
      entries: totals.get(id)?.entries ?? 0,
      bytes: totals.get(id)?.bytes ?? 0,
      ...times,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A sweep that found nothing to free and keeps nothing for readers. */
export function emptySweep(): SweepResult {
  return {
    staging: 0,
    released: { contents: 0, bytes: 0 },
    files: { count: 0, bytes: 0 },
    held: { contents: 0, bytes: 0, until: null },
  };
}
