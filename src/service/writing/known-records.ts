import type { EntryRecord } from '../../core/entry.js';
import { setNewest } from '../../core/recent-map.js';

/**
 * The records this process last committed, by session and name: a write's first guess at the entry it is about
 * to replace, so a small write need not read the entry first (one statement, or one round trip to PostgreSQL,
 * fewer). A guess is only ever a guess: the commit checks version and id, and one that finds another entry (or
 * none) gets the entry as stored back and is built again from that (decision 006, fourth pass). Bounded: the
 * least recently written go first.
 */
const MAX_METADATA_CHARS = 4096;

export class KnownRecords {
  readonly #records = new Map<string, EntryRecord>();
  readonly #capacity: number;

  constructor(capacity = 1024) {
    this.#capacity = capacity;
  }

  /** The record this process last committed for `name`, if it still remembers one. */
  get(session: string, name: string): EntryRecord | undefined {
    return this.#records.get(keyOf(session, name));
  }

  /**
   * Remembers `record` as its name's latest state: a copy, since the caller gets the record's metadata (and may
   * change it) while the store keeps what was committed. A record whose metadata is over 4 KiB as JSON is
   * forgotten instead: 1,024 of them could hold hundreds of MiB, and its next write simply reads the entry.
   */
  remember(record: EntryRecord): void {
    const key = keyOf(record.session, record.name);
    const metadata = JSON.stringify(record.metadata);
    if (metadata.length > MAX_METADATA_CHARS) this.#records.delete(key);
    else setNewest(this.#records, key, { ...record, metadata: JSON.parse(metadata) }, this.#capacity);
  }

  /** Forgets `name` (deleted by this process), or every name of `session` when `name` is left out. */
  forget(session: string, name?: string): void {
    if (name !== undefined) {
      this.#records.delete(keyOf(session, name));
      return;
    }
    for (const [key, record] of this.#records) if (record.session === session) this.#records.delete(key);
  }
}

function keyOf(session: string, name: string): string {
  return `${session}\0${name}`;
}
