import type { JsonObject } from './json.js';

/** `text` entries slice by characters and lines; `binary` entries slice by bytes. */
export type EntryKind = 'text' | 'binary';

/**
 * One stored entry. Sizes: `bytes` of the stored content, `chars` in Unicode code points, `lines` split on `\n`
 * (a last line without `\n` counts; empty content has 0 lines). Binary entries have `chars = lines = 0`.
 * Times are epoch milliseconds.
 */
export interface Entry {
  /** Random, 16 lowercase hex characters. */
  id: string;
  /** Unique within its session. */
  name: string;
  session: string;
  turn: string | null;
  step: number | null;
  /** The tool that produced it, if any. */
  source: string | null;
  kind: EntryKind;
  mediaType: string;
  bytes: number;
  chars: number;
  lines: number;
  sha256: string;
  createdAt: number;
  updatedAt: number;
  /** `null` = no TTL. */
  expiresAt: number | null;
  pinned: boolean;
  /**
   * `false` for what someone wrote (a person, a model's write tool, notes): a size cap never evicts it. `true` for
   * what can be produced again (a tool result the offload policy stored, or a write that opted in): a cap may
   * evict it, oldest first, when a write needs the room.
   */
  evictable: boolean;
  /** 1 on creation, +1 on every change; use it with `ifVersion` for compare-and-set. */
  version: number;
  metadata: JsonObject;
}

/**
 * What a driver persists for an entry: the public fields plus where its content lives.
 * `contentId` names the chunk sequence; `chunkCount` bounds it (chunks past it are invisible).
 */
export interface EntryRecord extends Entry {
  contentId: string;
  chunkCount: number;
}

/** Strips the storage fields from a record. */
export function toEntry(record: EntryRecord): Entry {
  const { contentId: _contentId, chunkCount: _chunkCount, ...entry } = record;
  return entry;
}

/** Summary of one session. */
export interface SessionInfo {
  id: string;
  entries: number;
  bytes: number;
  createdAt: number;
  updatedAt: number;
}
