import type { EntryRecord, SessionInfo } from '../../core/entry.js';
import type { StoreDriver, StoreTotals } from '../../stores/driver.js';

/**
 * Expired entries keep their rows until `gc` (or a write of their name) removes them, but they are gone for every
 * purpose: these subtract them from what the driver counts, so stats and session summaries show only live entries.
 */
function expiredEntries(driver: StoreDriver, now: number): Promise<EntryRecord[]> {
  return driver.doListEntries({ expiredAt: now, pinned: false });
}

/** Store totals over live entries only. */
export async function liveTotals(driver: StoreDriver, now: number): Promise<StoreTotals> {
  const [totals, expired] = await Promise.all([driver.doStats(), expiredEntries(driver, now)]);
  const bytes = expired.reduce((sum, record) => sum + record.bytes, 0);
  return { ...totals, entries: totals.entries - expired.length, bytes: totals.bytes - bytes };
}

/** Session summaries over live entries only. */
export async function liveSessions(driver: StoreDriver, now: number): Promise<SessionInfo[]> {
  const [sessions, expired] = await Promise.all([driver.doListSessions(), expiredEntries(driver, now)]);
  if (expired.length === 0) return sessions;
  const gone = new Map<string, { entries: number; bytes: number }>();
  for (const record of expired) {
    const sum = gone.get(record.session) ?? { entries: 0, bytes: 0 };
    sum.entries++;
    sum.bytes += record.bytes;
    gone.set(record.session, sum);
  }
  return sessions.map((info) => {
    const sum = gone.get(info.id);
    return sum ? { ...info, entries: info.entries - sum.entries, bytes: info.bytes - sum.bytes } : info;
  });
}
