import type { StoreDriver } from '../stores/driver.js';
import type { RedactionConfig } from './redaction-config.js';

/** Configuration of a {@link Scratchpad}. */
export interface ScratchpadConfig {
  driver: StoreDriver;
  /** Bytes per stored chunk (default: the driver's `preferredChunkSize`, else 256 KiB). */
  chunkSize?: number;
  /** TTL applied to writes that do not give one; `null` (default) = keep. */
  defaultTtlMs?: number | null;
  /** Largest content one write may store (default 4 GiB). */
  maxEntryBytes?: number;
  /**
   * Size cap for the whole store. A write that would pass it first evicts expired entries, then evictable ones
   * (offloaded tool results), oldest first — only when that makes it fit; otherwise it fails with `STORE_FULL`
   * and nothing is evicted. Entries someone wrote (not evictable) are never evicted by a cap.
   */
  maxStoreBytes?: number;
  /** The same cap for each session. */
  maxSessionBytes?: number;
  /** Largest slice `read()` returns as a string (default 64 MiB); stream bigger ones with `stream()`. */
  maxReadBytes?: number;
  /** Largest entry `edit()` rewrites in memory (default 64 MiB). */
  maxEditBytes?: number;
  /** Clock in epoch milliseconds (tests inject one). */
  now?: () => number;
  /**
   * Secret redaction: on by default in what a model sees (tool results, previews), off by default in what is
   * stored; `false` turns it off. See {@link RedactionConfig}.
   */
  redaction?: RedactionConfig | false;
}
