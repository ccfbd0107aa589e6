import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';
import { isExpired } from '../entry-expiry.js';
import type { ServiceContext } from '../service-context.js';
import type { GcResult } from '../types.js';

/**
 * Size caps that never destroy what someone wrote. A cap frees space only from entries that can go: expired
 * ones, then evictable ones (offloaded tool results, reproducible), oldest first. It plans first and evicts only
 * when the write will then fit; otherwise `STORE_FULL` with nothing evicted, naming what uses the space.
 */

/** The write that needs room: `growth` more bytes for `name` in `session` (which is never evicted for it). */
export interface Growth {
  session: string;
  name: string;
  /** Bytes the store grows by (the new size minus what the write replaces). */
  growth: number;
  /** The size of the content being written (a write larger than a whole cap can never fit). */
  bytes: number;
}

/** Frees what a write of `growth` more bytes needs under `maxStoreBytes` and `maxSessionBytes`, or throws. */
export async function makeRoom(context: ServiceContext, write: Growth): Promise<GcResult['removed']> {
  const { maxStoreBytes, maxSessionBytes } = context;
  if ((maxStoreBytes === undefined && maxSessionBytes === undefined) || write.growth <= 0) return [];
  for (const [cap, label] of [
    [maxStoreBytes, 'maxStoreBytes'],
    [maxSessionBytes, 'maxSessionBytes'],
  ] as const) {
    if (cap !== undefined && write.bytes > cap) {
      throw new ScratchpadError(
        'STORE_FULL',
        `"${write.name}" is ${formatBytes(write.bytes)}, more than the whole ${label} cap of ${formatBytes(cap)}; nothing was evicted.`,
        { hint: `Write less, or raise ${label}.`, details: { cap: label, bytes: write.bytes, max: cap } },
      );
    }
  }
  const usage = await measure(context, write.session);
  const overStore = maxStoreBytes === undefined ? 0 : usage.storeBytes + write.growth - maxStoreBytes;
  const overSession = maxSessionBytes === undefined ? 0 : usage.sessionBytes + write.growth - maxSessionBytes;
  if (overStore <= 0 && overSession <= 0) return [];
  const candidates = (await evictionCandidates(context)).filter(
    (record) => !(record.session === write.session && record.name === write.name),
  );
  const plan = planEviction(candidates, write.session, overStore, overSession);
  if (!plan) throw await storeFull(context, write, usage, overStore, overSession, candidates);
  const removed = await evictAll(context, plan);
  const freed = removed.reduce((sum, item) => sum + item.bytes, 0);
  const planned = plan.reduce((sum, record) => sum + record.bytes, 0);
  if (freed < planned) {
    // Another writer changed a planned entry meanwhile: measure again rather than overshoot a cap.
    const again = await measure(context, write.session);
    const stillOver =
      (maxStoreBytes !== undefined && again.storeBytes + write.growth > maxStoreBytes) ||
      (maxSessionBytes !== undefined && again.sessionBytes + write.growth > maxSessionBytes);
    if (stillOver) throw await storeFull(context, write, again, overStore, overSession, []);
  }
  return removed;
}

/** Evicts expired and evictable entries until the store is within its caps again (for `gc`). */
export async function enforceCaps(context: ServiceContext): Promise<GcResult['removed']> {
  const { maxStoreBytes, maxSessionBytes } = context;
  if (maxStoreBytes === undefined && maxSessionBytes === undefined) return [];
  const candidates = await evictionCandidates(context);
  const chosen = new Set<EntryRecord>();
  if (maxSessionBytes !== undefined) {
    for (const info of await context.driver.doListSessions()) {
      let over = info.bytes - maxSessionBytes;
      for (const record of candidates) {
        if (over <= 0) break;
        if (record.session !== info.id) continue;
        chosen.add(record);
        over -= record.bytes;
      }
    }
  }
  if (maxStoreBytes !== undefined) {
    let over = (await context.driver.doStats()).bytes - maxStoreBytes;
    for (const record of chosen) over -= record.bytes;
    for (const record of candidates) {
      if (over <= 0) break;
      if (chosen.has(record)) continue;
      chosen.add(record);
      over -= record.bytes;
    }
  }
  return evictAll(context, [...chosen]);
}

interface Usage {
  storeBytes: number;
  sessionBytes: number;
}

async function measure(context: ServiceContext, session: string): Promise<Usage> {
  const [totals, sessions] = await Promise.all([
    context.driver.doStats(),
    context.maxSessionBytes === undefined ? Promise.resolve([]) : context.driver.doListSessions(),
  ]);
  return {
    storeBytes: totals.bytes,
    sessionBytes: sessions.find((info) => info.id === session)?.bytes ?? 0,
  };
}

/** Entries a cap may remove: expired first (oldest first), then evictable ones, least recently written first. */
async function evictionCandidates(context: ServiceContext): Promise<EntryRecord[]> {
  const now = context.now();
  const unpinned = await context.driver.doListEntries({ pinned: false, orderBy: 'updatedAt' });
  const expired = unpinned.filter((record) => isExpired(record, now));
  const evictable = unpinned.filter((record) => !isExpired(record, now) && record.evictable);
  return [...expired, ...evictable];
}

/**
 * Which candidates to evict so that the session frees `overSession` and the store `overStore` bytes, or
 * `undefined` when they cannot. The session's own candidates count for both caps.
 */
function planEviction(
  candidates: EntryRecord[],
  session: string,
  overStore: number,
  overSession: number,
): EntryRecord[] | undefined {
  const plan: EntryRecord[] = [];
  let store = overStore;
  let own = overSession;
  for (const record of candidates) {
    if (own <= 0) break;
    if (record.session !== session) continue;
    plan.push(record);
    own -= record.bytes;
    store -= record.bytes;
  }
  if (own > 0) return undefined;
  for (const record of candidates) {
    if (store <= 0) break;
    if (plan.includes(record)) continue;
    plan.push(record);
    store -= record.bytes;
  }
  return store > 0 ? undefined : plan;
}

async function evictAll(context: ServiceContext, records: EntryRecord[]): Promise<GcResult['removed']> {
  const now = context.now();
  const removed: GcResult['removed'] = [];
  for (const record of records) {
    if (await context.driver.doDeleteEntry(record)) {
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

async function storeFull(
  context: ServiceContext,
  write: Growth,
  usage: Usage,
  overStore: number,
  overSession: number,
  candidates: EntryRecord[],
): Promise<ScratchpadError> {
  const freeable = candidates.reduce((sum, record) => sum + record.bytes, 0);
  const sessions = (await context.driver.doListSessions()).sort((a, b) => b.bytes - a.bytes);
  const top = sessions
    .slice(0, 3)
    .map((info) => `"${info.id}" ${formatBytes(info.bytes)}`)
    .join(', ');
  const sessionCap = overSession > 0 && context.maxSessionBytes !== undefined;
  const what = sessionCap
    ? `session "${write.session}" holds ${formatBytes(usage.sessionBytes)} of its ${formatBytes(context.maxSessionBytes as number)} cap`
    : `the store holds ${formatBytes(usage.storeBytes)} of its ${formatBytes(context.maxStoreBytes as number)} cap`;
  return new ScratchpadError(
    'STORE_FULL',
    `No room for ${formatBytes(write.growth)} more in "${write.name}": ${what}, and only ${formatBytes(freeable)} is expired or evictable; nothing was evicted. Written entries are never evicted. Largest sessions: ${top || 'none'}.`,
    {
      hint: `Delete entries you no longer need (or whole sessions), or raise ${sessionCap ? 'maxSessionBytes' : 'maxStoreBytes'}.`,
      details: {
        needed: Math.max(overStore, overSession),
        freeable,
        storeBytes: usage.storeBytes,
        sessionBytes: usage.sessionBytes,
        sessions: sessions.slice(0, 3).map((info) => ({ id: info.id, bytes: info.bytes })),
      },
    },
  );
}
