import { ScratchpadError } from '../core/errors.js';
import { formatBytes } from '../core/format.js';
import type { ServiceContext } from './service-context.js';
import type { GcResult } from './types.js';
import { isExpired } from './write-rules.js';

/** Frees at least `needed` bytes from the cap before a write of `name` (which is never evicted). */
export async function makeRoom(
  context: ServiceContext,
  growth: number,
  session: string,
  name: string,
): Promise<void> {
  if (context.maxStoreBytes === undefined || growth <= 0) return;
  const totals = await context.driver.doStats();
  const over = totals.bytes + growth - context.maxStoreBytes;
  if (over <= 0) return;
  const evicted = await evict(context, over, { session, name });
  const freed = evicted.reduce((sum, item) => sum + item.bytes, 0);
  if (freed < over) {
    throw new ScratchpadError(
      'STORE_FULL',
      `The store is full: ${formatBytes(totals.bytes - freed)} of ${formatBytes(context.maxStoreBytes)} used and nothing more can be evicted (the rest is pinned).`,
      { hint: 'Delete or unpin entries, or raise maxStoreBytes.', details: { needed: over - freed } },
    );
  }
}

/** Deletes expired, then least recently written unpinned entries until `needed` bytes are freed. */
export async function evict(
  context: ServiceContext,
  needed: number,
  keep?: { session: string; name: string },
): Promise<GcResult['removed']> {
  const now = context.now();
  const candidates = await context.driver.doListEntries({ pinned: false, orderBy: 'updatedAt' });
  // Expired entries go first, then the least recently written.
  candidates.sort((a, b) => Number(isExpired(b, now)) - Number(isExpired(a, now)));
  const removed: GcResult['removed'] = [];
  let freed = 0;
  for (const record of candidates) {
    if (freed >= needed) break;
    if (keep && record.session === keep.session && record.name === keep.name) continue;
    if (await context.driver.doDeleteEntry(record)) {
      freed += record.bytes;
      removed.push({
        session: record.session,
        name: record.name,
        id: record.id,
        bytes: record.bytes,
        reason: isExpired(record, now) ? 'expired' : 'cap',
      });
    }
  }
  return removed;
}
