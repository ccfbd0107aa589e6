import type { EntryRecord } from '../core/entry.js';
import { ScratchpadError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';

/**
 * The metadata key that holds an entry's lease. The lease lives in the entry's own record, so taking it bumps
 * the version: a writer that checked the entry before the lease was taken loses its compare-and-set and, on its
 * retry, meets the lease. No backend needs anything of its own.
 */
export const LEASE_KEY = 'scratchpad:lease';

/** A live lease on a name: who may write it, and until when. */
export interface Lease {
  name: string;
  holder: string;
  /** Epoch milliseconds when the lease lapses (the holder may renew it before). */
  expiresAt: number;
  /** The entry's version once the lease was taken. */
  version: number;
}

/** Checks a lease holder's id: a non-empty string of at most 200 characters. */
export function validateHolder(holder: unknown): asserts holder is string {
  if (typeof holder === 'string' && holder.length > 0 && holder.length <= 200) return;
  throw new ScratchpadError(
    'INVALID_ARGUMENT',
    `A lease holder must be a non-empty string of at most 200 characters, got ${JSON.stringify(holder)?.slice(0, 60)}.`,
    {
      hint: 'Name the agent: session(id, { agent: "planner" }), or pass { holder }.',
      details: { option: 'holder' },
    },
  );
}

/** The live lease on `record`, if any. */
export function leaseOf(record: EntryRecord | undefined, now: number): Omit<Lease, 'version'> | undefined {
  const value = record?.metadata[LEASE_KEY];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { holder, expiresAt } = value as { holder?: unknown; expiresAt?: unknown };
  if (typeof holder !== 'string' || typeof expiresAt !== 'number' || expiresAt <= now) return undefined;
  return { name: record?.name ?? '', holder, expiresAt };
}

/** Throws `LEASED` when another agent holds a live lease on the entry. */
export function assertNotLeased(
  record: EntryRecord | undefined,
  holder: string | undefined,
  now: number,
): void {
  const lease = leaseOf(record, now);
  if (!lease || lease.holder === holder) return;
  const until = new Date(lease.expiresAt).toISOString();
  throw new ScratchpadError(
    'LEASED',
    `Entry "${lease.name}" is leased by "${lease.holder}" until ${until}; only the holder may change it.`,
    {
      hint: 'Wait until the lease is released or lapses (the time above), or write under another name.',
      details: { name: lease.name, holder: lease.holder, expiresAt: lease.expiresAt },
    },
  );
}

/**
 * How {@link Scratchpad.lease} and {@link Scratchpad.release} set the lease through a write or an update: a key
 * no caller can spell, so metadata a caller passes never sets or clears a lease.
 */
export const LEASE_CHANGE: unique symbol = Symbol('scratchpad lease change');

/** Write or update options that may carry a lease change. */
export interface LeaseCarrier {
  metadata?: JsonObject;
  [LEASE_CHANGE]?: { holder: string; expiresAt: number } | null;
}

/**
 * The metadata to store: the caller's (or the current), without any `scratchpad:lease` it spells, plus the lease
 * that holds after this change (the current live one, unless lease or release changes it).
 */
export function keepLease(options: LeaseCarrier, current: EntryRecord | undefined, now: number): JsonObject {
  const { [LEASE_KEY]: _spelled, ...base } = options.metadata ?? current?.metadata ?? {};
  const change = options[LEASE_CHANGE];
  const lease = change === undefined ? leaseOf(current, now) : change;
  return lease ? { ...base, [LEASE_KEY]: { holder: lease.holder, expiresAt: lease.expiresAt } } : base;
}
