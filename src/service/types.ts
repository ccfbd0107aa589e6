import type { Entry, EntryKind } from '../core/entry.js';
import type { JsonObject } from '../core/json.js';
import type { SliceLocation } from '../core/location.js';
import type { IndexingProgress } from '../stores/driver.js';
import type { GrepMatch } from './grep/grep-types.js';

export type { ListFilter, ListOptions, ListOrder, ListPage } from './listing/list-options.js';

/** An entry is addressed by name within its session, or by its id. */
export type EntryRef = string | { id: string };

/** Options for {@link Scratchpad.write}. */
export interface WriteOptions {
  /** The agent writing (a session handle's agent fills it in): only a lease's holder may change a leased entry. */
  holder?: string;
  /** `replace` (default) overwrites; `append` adds to the end (creating the entry if needed); `create` fails if it exists. */
  mode?: 'replace' | 'append' | 'create';
  /** Compare-and-set: fail with `VERSION_CONFLICT` unless the entry's current version is this (0 = must not exist). */
  ifVersion?: number;
  /** Time to live in milliseconds from this write; `null` = keep forever. Default: the store's `defaultTtlMs`. */
  ttlMs?: number | null;
  pinned?: boolean;
  /**
   * `true` lets a size cap evict the entry (it can be produced again, like an offloaded tool result); default:
   * the current entry's setting, else `false` (what someone wrote is never evicted by a cap).
   */
  evictable?: boolean;
  turn?: string | null;
  step?: number | null;
  source?: string | null;
  /** `auto` (default) stores valid UTF-8 as text and anything else as binary; strings are always text. */
  kind?: EntryKind | 'auto';
  mediaType?: string;
  metadata?: JsonObject;
}

/** What a write did. */
export interface WriteResult {
  entry: Entry;
  created: boolean;
  /** The version and size before this write, when the entry existed. */
  previous?: { version: number; bytes: number; chars: number };
  /** Bytes this write added (for appends) or stored. */
  writtenBytes: number;
}

/** Options for {@link Scratchpad.update}: metadata-only changes. */
export interface UpdateOptions {
  ifVersion?: number;
  /** The agent changing the entry (see {@link WriteOptions.holder}). */
  holder?: string;
  ttlMs?: number | null;
  pinned?: boolean;
  evictable?: boolean;
  metadata?: JsonObject;
  mediaType?: string;
}

/** Options for {@link Scratchpad.edit}. */
export interface EditOptions {
  /** The agent editing (see {@link WriteOptions.holder}). */
  holder?: string;
  oldText: string;
  newText: string;
  /** Replace every occurrence; otherwise `oldText` must occur exactly once. */
  replaceAll?: boolean;
  ifVersion?: number;
}

/** What an edit did. */
export interface EditResult {
  entry: Entry;
  replacements: number;
  /** 1-based lines where the replaced text started (before the edit). */
  lines: number[];
}

/** Options for {@link Scratchpad.read}. */
export interface ReadOptions {
  /** Binary entries: how to encode the bytes (default base64). */
  encoding?: 'base64' | 'hex';
  /**
   * Refuse (`CONTENT_TOO_LARGE`, before reading) a slice whose returned string would be longer than this many
   * bytes (UTF-8 for text, the encoding's length for binary); the error names the largest slice that fits.
   */
  maxBytes?: number;
}

/** Result of a slice read. */
export interface ReadResult {
  entry: Entry;
  /** The slice: text, or base64/hex for binary entries. */
  content: string;
  encoding: 'utf8' | 'base64' | 'hex';
  location: SliceLocation;
  /** `chars 0–2,000 of 89,042; lines 1–25 of 1,204` */
  description: string;
  /** True when the slice is the whole entry. */
  complete: boolean;
}

/** Result of a grep. */
export interface GrepResult {
  entry: Entry;
  pattern: string;
  matches: GrepMatch[];
  /** Matching lines in the whole entry (or found before the scan stopped when `complete` is false). */
  total: number;
  complete: boolean;
  /** With `context`: merged blocks of lines around the matches, grep-style. */
  blocks?: Array<{ lines: Array<{ line: number; text: string; match: boolean }> }>;
  /** `23 matching lines of 88,001 (showing 1–23)` */
  description: string;
}

/** What a search found. */
export interface SearchResult {
  /** Best first. */
  hits: SearchHit[];
  /**
   * Present while the store is still building the session's full-text index (a first search over a large
   * session): the hits come from the `done` bytes of `total` indexed so far; searching again later finds more.
   */
  indexing?: IndexingProgress;
}

/** One search hit. */
export interface SearchHit {
  entry: Entry;
  score: number;
  snippet: string;
}

/** What `gc()` removed. */
export interface GcResult {
  /** Entries removed: expired, or evicted by a size cap. */
  removed: Array<{ session: string; name: string; id: string; bytes: number; reason: 'expired' | 'cap' }>;
  /** The size of the removed entries (a driver may keep their content for readers a while: see `contentKept`). */
  bytes: number;
  /**
   * True when the store keeps the removed entries' content on disk for readers (SQLite, PostgreSQL): it is then in
   * `held` (or in `released`, when its wait was already over), and a later gc frees it. False when it was deleted
   * with the entries.
   */
  contentKept: boolean;
  /** Abandoned staging areas swept. */
  staging: number;
  /**
   * Content of entries replaced or deleted earlier, released now: the SQLite and PostgreSQL drivers keep it for
   * readers that may still be reading it (10 minutes and `readGraceMs`).
   */
  released: { contents: number; bytes: number };
  /** Files deleted (SQLite side files, the fs store's leftovers) and the space on disk they gave back. */
  files: { count: number; bytes: number };
  /**
   * Content of replaced or deleted entries (this gc's included) still kept for readers; `until` (epoch ms) is
   * when the last of it can be released by a later `gc`, `null` when nothing is kept.
   */
  held: { contents: number; bytes: number; until: number | null };
  /**
   * Content of replaced or deleted entries past its readers' time, still kept until its search index rows are
   * removed (the SQLite store does that in the background); a later `gc` frees it.
   */
  unindexing: { contents: number; bytes: number };
}
