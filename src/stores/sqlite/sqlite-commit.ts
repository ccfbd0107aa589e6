import type { EntryRecord } from '../../core/entry.js';
import type { CommitRequest, CommitResult } from '../driver.js';
import { isExpectedEntry } from '../driver-helpers.js';
import type { ChunkStore } from './sqlite-chunks.js';
import type { EntryTable } from './sqlite-entries.js';
import { contentKey } from './sqlite-records.js';
import type { SearchIndex } from './sqlite-search.js';

/** The tables a commit changes. */
export interface CommitTables {
  entries: EntryTable;
  chunks: ChunkStore;
  search: SearchIndex;
}

/**
 * A staging area holding every staged chunk. `createdWithChunks` is set when the commit itself created it (a small
 * write's, already marked committed) and is how many chunks it inserted: all there are.
 */
export interface CompletedStaging {
  content: number;
  createdWithChunks?: number;
}

/**
 * Applies one {@link CommitRequest}. Must run inside a `BEGIN IMMEDIATE` transaction: the version check and the
 * change are then one atomic step for every process sharing the file. Once the version matched, `stage` is given
 * the request's staging area (its key) and must make it hold every staged chunk, or throw when it cannot.
 *
 * - `replace`: the staging area becomes the entry's content; the previous content leaves the search index and is
 *   retired (readers that resolved the entry before still read it; it is purged later).
 * - `append`: chunks from `keepChunks` on are deleted, then the staged chunks are re-keyed onto the entry's
 *   content after the kept ones (index rows only; the bytes stay where they were written).
 * - `metadata`: only the record's fields change.
 */
export function commitChange(
  tables: CommitTables,
  request: CommitRequest,
  now: number,
  stage: (staging: number) => CompletedStaging,
): CommitResult {
  const { entries, chunks, search } = tables;
  const current = entries.get(request.record.session, request.record.name);
  if (!isExpectedEntry(current, request)) return { ok: false, current };
  entries.touchSession(request.record.session, now);
  let record: EntryRecord;
  if (request.mode === 'replace') {
    const staged = stage(contentKey(request.stagingId));
    const staging = staged.content;
    if (staged.createdWithChunks === undefined) chunks.markCommitted(staging);
    const chunkCount = staged.createdWithChunks ?? chunks.countChunks(staging);
    record = { ...request.record, contentId: String(staging), chunkCount };
    if (current) {
      const previous = contentKey(current.contentId);
      search.unindexContent(previous);
      entries.update(record, current);
      chunks.retireContent(previous, now);
    } else {
      entries.insert(record);
    }
  } else if (request.mode === 'append') {
    const existing = current as EntryRecord;
    const target = contentKey(existing.contentId);
    const staging = stage(contentKey(request.stagingId)).content;
    search.unindexContent(target, request.keepChunks);
    const moved = chunks.appendStaged(target, request.keepChunks, staging);
    chunks.deleteContent(staging);
    record = { ...request.record, contentId: existing.contentId, chunkCount: request.keepChunks + moved };
    entries.update(record, existing);
  } else {
    const existing = current as EntryRecord;
    record = { ...request.record, contentId: existing.contentId, chunkCount: existing.chunkCount };
    entries.update(record, existing);
  }
  return { ok: true, record, previous: current };
}
