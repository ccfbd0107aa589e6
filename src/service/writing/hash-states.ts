import type { Hash } from 'node:crypto';
import type { EntryRecord } from '../../core/entry.js';
import { setNewest } from '../../core/recent-map.js';

/**
 * SHA-256 states of recently written entry versions, kept in this process so that an append can continue the
 * hash from where the last write left it instead of re-reading the whole entry (O(appended), not O(entry)).
 * Keyed by id, version and digest: any change by another process or writer simply misses, and the append falls
 * back to hashing the existing content.
 */
export class HashStates {
  readonly #states = new Map<string, Hash>();
  readonly #capacity: number;

  constructor(capacity = 256) {
    this.#capacity = capacity;
  }

  /** A copy of the state that produced `record.sha256`, if this process wrote that version. */
  take(record: EntryRecord): Hash | undefined {
    const state = this.#states.get(keyOf(record));
    return state?.copy();
  }

  /** Remembers the state behind a version just committed (`hash` must not have been digested). */
  remember(record: EntryRecord, hash: Hash): void {
    setNewest(this.#states, keyOf(record), hash, this.#capacity);
  }
}

function keyOf(record: EntryRecord): string {
  return `${record.id}:${record.version}:${record.sha256}`;
}
