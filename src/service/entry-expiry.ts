import type { EntryRecord } from '../core/entry.js';
import type { ServiceContext } from './service-context.js';

/** True when the entry has a TTL that has passed and is not pinned (a pinned entry never expires while pinned). */
export function isExpired(record: EntryRecord, now: number): boolean {
  return !record.pinned && record.expiresAt !== null && record.expiresAt <= now;
}

/** When an entry written at `now` expires (`undefined` TTL: the store default). */
export function expiry(
  context: ServiceContext,
  ttlMs: number | null | undefined,
  now: number,
): number | null {
  if (ttlMs === null) return null;
  if (ttlMs === undefined) return context.defaultTtlMs === null ? null : now + context.defaultTtlMs;
  return now + ttlMs;
}
