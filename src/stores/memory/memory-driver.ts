import type { Chunk, ChunkAxis } from '../../core/chunk.js';
import { chunkStart } from '../../core/chunk.js';
import type { EntryRecord, SessionInfo } from '../../core/entry.js';
import type {
  CommitRequest,
  CommitResult,
  ContentSink,
  ListQuery,
  StoreDriver,
  StoreTotals,
  SweepResult,
} from '../driver.js';
import {
  emptySweep,
  isExpectedEntry,
  matchesQuery,
  newStagingId,
  rebaseChunks,
  sessionInfos,
  sortRecords,
} from '../driver-helpers.js';

/** Options for {@link createMemoryDriver}. */
export interface MemoryDriverConfig {
  now?: () => number;
}

/**
 * The reference driver: everything in process memory, nothing persisted. Every other backend must behave
 * like this one (the contract suite checks it).
 */
export class MemoryDriver implements StoreDriver {
  readonly backend = 'memory';
  readonly #entries = new Map<string, EntryRecord>(); // key: session \u0000 name
  readonly #contents = new Map<string, Chunk[]>(); // contentId → chunks
  /** Staging areas by id, each held by its open sink until committed or aborted. */
  readonly #staging = new Map<string, Chunk[]>();
  readonly #sessions = new Map<string, { createdAt: number; updatedAt: number }>();
  readonly #now: () => number;

  constructor(config: MemoryDriverConfig = {}) {
    this.#now = config.now ?? Date.now;
  }

  async doStage(_session: string): Promise<ContentSink> {
    const stagingId = newStagingId();
    const chunks: Chunk[] = [];
    this.#staging.set(stagingId, chunks);
    return {
      stagingId,
      write: async (chunk) => {
        if (this.#staging.get(stagingId) !== chunks) {
          throw new Error(`Staging area ${stagingId} no longer exists: it was committed or aborted.`);
        }
        chunks.push({ ...chunk, data: Uint8Array.from(chunk.data) });
      },
      abort: async () => {
        this.#staging.delete(stagingId);
      },
    };
  }

  async doCommit(request: CommitRequest): Promise<CommitResult> {
    const key = keyOf(request.record.session, request.record.name);
    const current = this.#entries.get(key);
    if (!isExpectedEntry(current, request)) return { ok: false, current };
    const record = { ...request.record };
    if (request.mode === 'replace') {
      const staged = this.#takeStaging(request.stagingId);
      record.contentId = request.stagingId;
      record.chunkCount = staged.length;
      if (current) this.#contents.delete(current.contentId);
      this.#contents.set(record.contentId, staged);
    } else if (request.mode === 'append') {
      const staged = this.#takeStaging(request.stagingId);
      const existing = this.#contents.get((current as EntryRecord).contentId) ?? [];
      const kept = existing.slice(0, request.keepChunks);
      const appended = rebaseChunks(kept, staged);
      record.contentId = (current as EntryRecord).contentId;
      record.chunkCount = kept.length + appended.length;
      this.#contents.set(record.contentId, [...kept, ...appended]);
    } else {
      record.contentId = (current as EntryRecord).contentId;
      record.chunkCount = (current as EntryRecord).chunkCount;
    }
    this.#entries.set(key, record);
    const session = this.#sessions.get(record.session);
    const now = this.#now();
    this.#sessions.set(record.session, { createdAt: session?.createdAt ?? now, updatedAt: now });
    return { ok: true, record: { ...record }, previous: current };
  }

  async doGetEntry(session: string, name: string): Promise<EntryRecord | undefined> {
    const record = this.#entries.get(keyOf(session, name));
    return record ? { ...record } : undefined;
  }

  async doGetEntryById(id: string): Promise<EntryRecord | undefined> {
    for (const record of this.#entries.values()) if (record.id === id) return { ...record };
    return undefined;
  }

  async doListEntries(query: ListQuery): Promise<EntryRecord[]> {
    const found = [...this.#entries.values()]
      .filter((record) => matchesQuery(record, query))
      .map((record) => ({ ...record }));
    const sorted = sortRecords(found, query.orderBy ?? 'name');
    return query.limit === undefined ? sorted : sorted.slice(0, query.limit);
  }

  async doLocateChunk(record: EntryRecord, axis: ChunkAxis, position: number): Promise<number> {
    const chunks = (this.#contents.get(record.contentId) ?? []).slice(0, record.chunkCount);
    let low = 0;
    let high = chunks.length - 1;
    let found = 0;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (chunkStart(chunks[middle] as Chunk, axis) <= position) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }

  async doReadChunks(record: EntryRecord, seqStart: number, seqEnd: number): Promise<Chunk[]> {
    const chunks = this.#contents.get(record.contentId) ?? [];
    return chunks.slice(Math.max(0, seqStart), Math.min(seqEnd, record.chunkCount));
  }

  async doDeleteEntry(record: EntryRecord): Promise<boolean> {
    const key = keyOf(record.session, record.name);
    const current = this.#entries.get(key);
    if (!current || current.version !== record.version || current.id !== record.id) return false;
    this.#entries.delete(key);
    this.#contents.delete(current.contentId);
    return true;
  }

  async doListSessions(): Promise<SessionInfo[]> {
    return sessionInfos(this.#sessions, this.#entries.values());
  }

  async doDeleteSession(session: string): Promise<{ entries: number; bytes: number } | undefined> {
    if (!this.#sessions.has(session)) return undefined;
    let entries = 0;
    let bytes = 0;
    for (const [key, record] of this.#entries) {
      if (record.session !== session) continue;
      entries++;
      bytes += record.bytes;
      this.#contents.delete(record.contentId);
      this.#entries.delete(key);
    }
    this.#sessions.delete(session);
    return { entries, bytes };
  }

  async doStats(): Promise<StoreTotals> {
    let entries = 0;
    let bytes = 0;
    let pinnedBytes = 0;
    for (const record of this.#entries.values()) {
      entries++;
      bytes += record.bytes;
      if (record.pinned) pinnedBytes += record.bytes;
    }
    return { sessions: this.#sessions.size, entries, bytes, pinnedBytes };
  }

  /**
   * Sweeps nothing: every staging area of an in-memory store belongs to an open sink of this driver (committing or
   * aborting removes it), which a sweep never takes; a crash loses the whole store anyway. Deleted and replaced
   * contents are released at once, so none is held.
   */
  async doSweepStaging(_olderThanMs: number): Promise<SweepResult> {
    return emptySweep();
  }

  async close(): Promise<void> {}

  #takeStaging(stagingId: string): Chunk[] {
    const chunks = this.#staging.get(stagingId);
    if (!chunks) throw new Error(`Staging area ${stagingId} does not exist: it was committed or aborted.`);
    this.#staging.delete(stagingId);
    return chunks;
  }
}

/** Creates an in-memory driver. */
export function createMemoryDriver(config: MemoryDriverConfig = {}): MemoryDriver {
  return new MemoryDriver(config);
}

function keyOf(session: string, name: string): string {
  return `${session}\u0000${name}`;
}
