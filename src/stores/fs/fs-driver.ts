import { mkdir, rename, rm, rmdir } from 'node:fs/promises';
import type { Chunk, ChunkAxis } from '../../core/chunk.js';
import type { EntryRecord, SessionInfo } from '../../core/entry.js';
import type {
  ChunkSource,
  CommitRequest,
  CommitResult,
  ContentSink,
  ListQuery,
  StoreDriver,
  StoreTotals,
  SweepResult,
} from '../driver.js';
import { isExpectedEntry, matchesQuery, newStagingId, sortRecords } from '../driver-helpers.js';
import { readTextIfExists, removeFile, syncDirectory, tempName, writeDurable } from './atomic-file.js';
import { ChunkIndex } from './chunk-index.js';
import { ChunkIndexCache } from './chunk-index-cache.js';
import { appendInPlace, canAppendInPlace, copyOnWrite } from './content-append.js';
import { ContentReader } from './fs-chunks.js';
import { CommitBatch } from './fs-commit.js';
import { mapLimit, RecordReader } from './fs-entries.js';
import { guard, isMissing, storeError } from './fs-errors.js';
import { FsLayout, splitContentId } from './fs-layout.js';
import { serializeRecord } from './fs-records.js';
import { prepareRoot } from './fs-schema.js';
import { StagingArea } from './fs-staging.js';
import { sweepStore } from './fs-sweep.js';
import { assertRealDirectories } from './real-directories.js';
import {
  checkSessionDirectory,
  checkVisibleFree,
  ensureSession,
  linkVisible,
  sameFile,
} from './session-files.js';
import { type HeldLock, type SessionLockOptions, SessionLocks } from './session-lock.js';

/** Options for {@link createFsDriver}. */
export interface FsDriverConfig {
  /** The store directory; created if missing. */
  root: string;
  /** Clock in epoch milliseconds, for session creation times and staging age (default `Date.now`). */
  now?: () => number;
  /** Tuning of the cross-process session lock. */
  lock?: SessionLockOptions;
}

/**
 * A store that is a plain directory people can browse: `cat ROOT/SESSION/NAME` prints an entry's content exactly
 * as written. Names and session ids never start with `.`, so the driver's bookkeeping lives in hidden directories
 * that no entry can collide with:
 *
 * ```
 * ROOT/
 *   .scratchpad/layout.json             format and version of this layout
 *   .scratchpad/ids/ID                  "SESSION/NAME" of entry ID (O(1) lookup by id)
 *   .scratchpad/staging/STAGINGID       content being written, invisible until committed
 *   .scratchpad/trash/, .scratchpad/tmp/  deleted sessions on their way out; temporary files
 *   SESSION/NAME                        the content, byte for byte (a hard link to the content file)
 *   SESSION/.scratchpad/session.json    {"id", "createdAt"}
 *   SESSION/.scratchpad/lock            the session's commit lock (see SessionLocks)
 *   SESSION/.scratchpad/entries/NAME.json            the entry's record: the commit point
 *   SESSION/.scratchpad/content/FILEID               the content file (same inode as SESSION/NAME)
 *   SESSION/.scratchpad/content/FILEID-INDEXID.idx   its chunk index (12 bytes per chunk, never changed)
 *   SESSION/.scratchpad/tmp/                         temporary files of the session's atomic writes
 * ```
 *
 * A record's `contentId` is `FILEID-INDEXID`: which content file holds the bytes and which immutable index
 * describes them. A commit holds the session lock (one writer per session across processes), checks the version,
 * writes every new file to a temporary name and fsyncs it (in parallel, see `CommitBatch`), then renames in this
 * order: content file and index into `content/` and the id file (then fsyncs those directories), the visible
 * `NAME` (a hard link; readers of the record never depend on it), and last the record. **Invariant:** whatever a record names (content file, index) exists and is durable
 * before the record does, so a reader that sees a new record also sees its content; and old content is removed
 * only after the new record is in place. A crash leaves the old record and at worst unreferenced files or a
 * `NAME` showing the uncommitted content; the sweep (`doSweepStaging`, run by `gc`) removes the former and
 * re-links the latter. Readers take no lock and are bounded by the record they read (`bytes`, `chunkCount`), which
 * is what lets an append write in place (see `content-append.ts`).
 *
 * Reads are O(slice): the chunk index is loaded once per content id (cached, binary-searched) and only the bytes
 * of the requested chunks are read, with one positional read.
 */
export class FsDriver implements StoreDriver {
  readonly backend = 'fs';
  /** Absolute path of the store directory. */
  readonly root: string;
  readonly #layout: FsLayout;
  readonly #reader: RecordReader;
  readonly #now: () => number;
  readonly #locks: SessionLocks;
  readonly #staging = new Map<string, StagingArea>();
  readonly #indexes = new ChunkIndexCache();
  readonly #content: ContentReader;

  constructor(config: FsDriverConfig) {
    this.#layout = new FsLayout(config.root);
    this.root = this.#layout.root;
    this.#reader = new RecordReader(this.#layout);
    this.#now = config.now ?? Date.now;
    this.#locks = new SessionLocks(config.lock);
    this.#content = new ContentReader(this.#layout, this.#reader, this.#indexes);
    prepareRoot(this.#layout);
  }

  async doStage(session: string): Promise<ContentSink> {
    this.#layout.sessionDirectory(session);
    await assertRealDirectories(this.#layout, [this.#layout.stagingDirectory]);
    const stagingId = newStagingId();
    const area = await StagingArea.create(stagingId, this.#layout.stagingFile(stagingId));
    this.#staging.set(stagingId, area);
    return {
      stagingId,
      write: (chunk) => area.write(chunk),
      abort: async () => {
        this.#staging.delete(stagingId);
        await area.abort();
      },
    };
  }

  async doCommit(request: CommitRequest): Promise<CommitResult> {
    const { session, name } = request.record;
    const recordPath = this.#layout.recordFile(session, name);
    this.#layout.idFile(request.record.id);
    const area = request.mode === 'metadata' ? undefined : this.#stagingArea(request.stagingId);
    const outcome = await this.#withLock(session, true, async (): Promise<CommitResult> => {
      const current = await this.#reader.record(session, name, 'write');
      if (!isExpectedEntry(current, request)) return { ok: false, current };
      if (!current) await checkVisibleFree(this.#layout, session, name);
      await ensureSession(this.#layout, this.#reader, session, this.#now());
      const record: EntryRecord = { ...request.record, session, name };
      const batch = new CommitBatch();
      const obsolete: string[] = [];
      const recordTemp = this.#layout.sessionTempFile(session, tempName());
      let index: ChunkIndex | undefined;
      let visibleFileId: string | undefined;
      try {
        if (request.mode === 'metadata') {
          const existing = current as EntryRecord;
          record.contentId = existing.contentId;
          record.chunkCount = existing.chunkCount;
        } else if (request.mode === 'replace') {
          const staged = area as StagingArea;
          index = await staged.index();
          checkTotal(record, index);
          visibleFileId = staged.stagingId;
          record.contentId = `${visibleFileId}-${newStagingId()}`;
          batch.work(staged.seal());
          batch.move(
            staged.path,
            this.#layout.contentFile(session, visibleFileId),
            this.#layout.contentDirectory(session),
          );
          if (current) obsolete.push(...this.#contentPaths(current));
        } else {
          ({ index, visibleFileId } = await this.#planAppend(
            current as EntryRecord,
            record,
            area as StagingArea,
            request.keepChunks,
            batch,
            obsolete,
          ));
        }
        if (index) {
          record.chunkCount = index.count;
          const indexPath = this.#layout.indexFile(session, record.contentId);
          batch.file(
            indexPath,
            index.encode(),
            this.#layout.sessionTempFile(session, tempName()),
            this.#layout.contentDirectory(session),
          );
        }
        if (await this.#needsIdFile(record, current)) {
          const idPath = this.#layout.idFile(record.id);
          batch.file(
            idPath,
            `${session}/${name}\n`,
            this.#layout.storeTempFile(tempName()),
            this.#layout.idsDirectory,
          );
        }
        batch.temp(recordTemp);
        batch.work(writeDurable(recordTemp, serializeRecord(record)));
        await batch.land();
        if (visibleFileId) await linkVisible(this.#layout, session, name, visibleFileId);
        await rename(recordTemp, recordPath);
      } catch (error) {
        await batch.discard();
        throw error;
      }
      await syncDirectory(this.#layout.entriesDirectory(session));
      // Committed. What follows only frees space; the sweep finishes it if this process dies here.
      if (area) this.#staging.delete(area.stagingId);
      if (index) this.#indexes.set(`${session}/${record.contentId}`, index);
      if (current && current.contentId !== record.contentId)
        this.#indexes.delete(`${session}/${current.contentId}`);
      await Promise.all(obsolete.map((path) => removeFile(path).catch(() => false)));
      if (current && current.id !== record.id) await this.#removeIdFile(current).catch(() => {});
      return { ok: true, record: { ...record }, previous: current };
    });
    return outcome as CommitResult;
  }

  /**
   * Plans an append: in place when the staged bytes only extend the content file, else copy-on-write into a new
   * content file (see `content-append.ts`). Sets the record's content id; returns the new index and, for
   * copy-on-write, the new content file `NAME` must link to.
   */
  async #planAppend(
    current: EntryRecord,
    record: EntryRecord,
    area: StagingArea,
    keep: number,
    batch: CommitBatch,
    obsolete: string[],
  ): Promise<{ index: ChunkIndex; visibleFileId: string | undefined }> {
    if (!Number.isInteger(keep) || keep < 0 || keep > current.chunkCount) {
      throw new Error(`keepChunks ${keep} is outside [0, ${current.chunkCount}] for "${current.name}".`);
    }
    const session = current.session;
    const kept = await this.#content.index(current);
    const index = ChunkIndex.join(kept, keep, await area.index());
    checkTotal(record, index);
    const keptBytes = kept.start('byte', keep);
    const stagedBytes = area.bytes;
    const { fileId } = splitContentId(current.contentId);
    const contentPath = this.#layout.contentFile(session, fileId);
    const inPlace = await canAppendInPlace(
      contentPath,
      current.bytes,
      keptBytes,
      area.path,
      stagedBytes,
    ).catch(async (error: unknown) => {
      throw isMissing(error) ? await this.#content.vanished(current, contentPath) : error;
    });
    // The staged file is only read from here on, so it needs no fsync of its own.
    await area.seal(false);
    obsolete.push(area.path);
    if (inPlace) {
      batch.work(appendInPlace(contentPath, current.bytes, keptBytes, area.path, stagedBytes));
      obsolete.push(this.#layout.indexFile(session, current.contentId));
      record.contentId = `${fileId}-${newStagingId()}`;
      return { index, visibleFileId: undefined };
    }
    const newFileId = newStagingId();
    const built = this.#layout.stagingFile(newFileId);
    batch.temp(built);
    batch.work(copyOnWrite(contentPath, keptBytes, area.path, stagedBytes, built));
    batch.move(built, this.#layout.contentFile(session, newFileId), this.#layout.contentDirectory(session));
    obsolete.push(...this.#contentPaths(current));
    record.contentId = `${newFileId}-${newStagingId()}`;
    return { index, visibleFileId: newFileId };
  }

  async doGetEntry(session: string, name: string): Promise<EntryRecord | undefined> {
    return this.#reader.record(session, name);
  }

  async doGetEntryById(id: string): Promise<EntryRecord | undefined> {
    if (typeof id !== 'string' || !/^[0-9a-f]{16,64}$/.test(id)) return undefined;
    const target = await this.#reader.idTarget(id);
    if (!target) return undefined;
    const record = await this.#reader.record(target.session, target.name);
    return record?.id === id ? record : undefined;
  }

  async doListEntries(query: ListQuery): Promise<EntryRecord[]> {
    if (query.session !== undefined) this.#layout.sessionDirectory(query.session);
    if (query.session !== undefined && (query.orderBy ?? 'name') === 'name' && query.limit !== undefined)
      return this.#listByName(query.session, query, query.limit);
    const sessions = query.session !== undefined ? [query.session] : await this.#reader.sessionIds();
    const perSession = await mapLimit(sessions, 4, (session) =>
      this.#reader.sessionRecords(session, query.prefix),
    );
    const sorted = sortRecords(
      perSession.flat().filter((record) => matchesQuery(record, query)),
      query.orderBy ?? 'name',
    );
    return query.limit === undefined ? sorted : sorted.slice(0, query.limit);
  }

  /**
   * A page of one session in name order: the names come from the directory listing, and only as many records are
   * read as the page needs (the time orders must read every record to sort them).
   */
  async #listByName(session: string, query: ListQuery, limit: number): Promise<EntryRecord[]> {
    const after = query.after?.name;
    const names = (await this.#reader.sessionNames(session, query.prefix))
      .filter((name) => after === undefined || name > after)
      .sort();
    const found: EntryRecord[] = [];
    for (let start = 0; start < names.length && found.length < limit; ) {
      const batch = names.slice(start, start + Math.max(16, limit - found.length));
      start += batch.length;
      for (const record of await this.#reader.records(session, batch)) {
        if (found.length < limit && matchesQuery(record, query)) found.push(record);
      }
    }
    return found;
  }

  async doLocateChunk(record: EntryRecord, axis: ChunkAxis, position: number): Promise<number> {
    return this.#content.locate(record, axis, position);
  }

  async doReadChunks(record: EntryRecord, seqStart: number, seqEnd: number): Promise<Chunk[]> {
    return this.#content.chunks(record, seqStart, seqEnd);
  }

  async doChunkSources(record: EntryRecord, seqStart: number, seqEnd: number): Promise<ChunkSource[]> {
    return this.#content.sources(record, seqStart, seqEnd);
  }

  async doDeleteEntry(record: EntryRecord): Promise<boolean> {
    const { session, name } = record;
    const recordPath = this.#layout.recordFile(session, name);
    const deleted = await this.#withLock(session, false, async () => {
      const current = await this.#reader.record(session, name);
      if (!current || current.version !== record.version || current.id !== record.id) return false;
      const [contentPath, indexPath] = this.#contentPaths(current) as [string, string];
      const visible = this.#layout.entryFile(session, name);
      // A NAME that is not our content file is someone's own file: never delete it.
      if (await sameFile(visible, contentPath)) {
        await removeFile(visible);
        await syncDirectory(this.#layout.sessionDirectory(session));
      }
      await removeFile(recordPath);
      await syncDirectory(this.#layout.entriesDirectory(session));
      this.#indexes.delete(`${session}/${current.contentId}`);
      await Promise.all([removeFile(contentPath), removeFile(indexPath), this.#removeIdFile(current)]);
      return true;
    });
    return deleted === true;
  }

  async doListSessions(): Promise<SessionInfo[]> {
    const ids = await this.#reader.sessionIds();
    const infos = await mapLimit(ids, 4, async (id): Promise<SessionInfo | undefined> => {
      const file = await this.#reader.session(id);
      if (!file) return undefined;
      const records = await this.#reader.sessionRecords(id);
      return {
        id,
        entries: records.length,
        bytes: records.reduce((sum, record) => sum + record.bytes, 0),
        createdAt: file.createdAt,
        updatedAt: records.reduce((latest, record) => Math.max(latest, record.updatedAt), file.createdAt),
      };
    });
    return infos.filter((info): info is SessionInfo => info !== undefined);
  }

  async doDeleteSession(session: string): Promise<{ entries: number; bytes: number } | undefined> {
    const directory = this.#layout.sessionDirectory(session);
    return this.#withLock(session, false, async (lock) => {
      if (!(await this.#reader.session(session))) return undefined;
      const records = await this.#reader.sessionRecords(session);
      for (const record of records) {
        const visible = this.#layout.entryFile(session, record.name);
        if (await sameFile(visible, this.#contentPaths(record)[0] as string)) await removeFile(visible);
      }
      await syncDirectory(directory);
      // The rename is the commit point; the lock file moves away with the hidden directory.
      const trash = this.#layout.trashEntry(tempName());
      await rename(this.#layout.sessionHidden(session), trash);
      lock.detach();
      await syncDirectory(directory);
      for (const record of records) this.#indexes.delete(`${session}/${record.contentId}`);
      await Promise.all(records.map((record) => this.#removeIdFile(record).catch(() => {})));
      await rm(trash, { recursive: true, force: true });
      // Files people put in the session directory stay, and so does the directory then.
      await rmdir(directory).catch(() => {});
      return { entries: records.length, bytes: records.reduce((sum, record) => sum + record.bytes, 0) };
    });
  }

  async doStats(): Promise<StoreTotals> {
    const ids = await this.#reader.sessionIds();
    const perSession = await mapLimit(ids, 4, (session) => this.#reader.sessionRecords(session));
    const totals: StoreTotals = { sessions: ids.length, entries: 0, bytes: 0, pinnedBytes: 0 };
    for (const record of perSession.flat()) {
      totals.entries++;
      totals.bytes += record.bytes;
      if (record.pinned) totals.pinnedBytes += record.bytes;
    }
    return totals;
  }

  /**
   * Removes what crashed writers left (staging files, temporary files, deleted sessions, dangling id files) once
   * older than `olderThanMs`, and repairs each session under its lock: unreferenced content files go, a `NAME` that
   * is missing or shows uncommitted content is re-linked, and bytes an interrupted append left past the committed
   * end are truncated. Returns the abandoned staging files it removed and every file it deleted with the space
   * that gave back; deletes free their files at once, so nothing is held for readers.
   */
  async doSweepStaging(olderThanMs: number): Promise<SweepResult> {
    return sweepStore({
      layout: this.#layout,
      reader: this.#reader,
      cutoff: this.#now() - olderThanMs,
      isLiveStaging: (stagingId) => this.#staging.has(stagingId),
      withLock: (session, body) => this.#withLock(session, false, body),
    });
  }

  async close(): Promise<void> {
    const areas = [...this.#staging.values()];
    this.#staging.clear();
    await Promise.all(areas.map((area) => area.abort().catch(() => {})));
    this.#indexes.clear();
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────────────────────

  #stagingArea(stagingId: string): StagingArea {
    const area = this.#staging.get(stagingId);
    if (!area) throw new Error(`Unknown staging area ${stagingId}`);
    return area;
  }

  /** `[content file, index file]` of a record. */
  #contentPaths(record: EntryRecord): string[] {
    const { fileId } = splitContentId(record.contentId);
    return [
      this.#layout.contentFile(record.session, fileId),
      this.#layout.indexFile(record.session, record.contentId),
    ];
  }

  /** Runs `body` holding the session's lock; `undefined` when `create` is false and the session does not exist. */
  async #withLock<T>(
    session: string,
    create: boolean,
    body: (lock: HeldLock) => Promise<T>,
  ): Promise<T | undefined> {
    const directory = this.#layout.sessionDirectory(session);
    if (create) await checkSessionDirectory(directory);
    // Everything a lock holder writes or deletes lives in these: each must be a real directory inside the root.
    await assertRealDirectories(this.#layout, [
      this.#layout.entriesDirectory(session),
      this.#layout.contentDirectory(session),
      this.#layout.sessionTempDirectory(session),
      this.#layout.trashDirectory,
      this.#layout.idsDirectory,
    ]);
    const hidden = this.#layout.sessionHidden(session);
    const lock = await this.#locks.acquire(
      this.#layout.lockFile(session),
      create
        ? () =>
            guard(hidden, 'create', async () => {
              await mkdir(hidden, { recursive: true });
            })
        : undefined,
    );
    if (!lock) return undefined;
    try {
      return await body(lock);
    } catch (error) {
      throw storeError(error, directory, 'update the session in');
    } finally {
      await lock.release();
    }
  }

  /** Whether `ids/ID` must be (re)written: it is written before the record that carries the id. */
  async #needsIdFile(record: EntryRecord, current: EntryRecord | undefined): Promise<boolean> {
    if (current?.id !== record.id) return true;
    return (await readTextIfExists(this.#layout.idFile(record.id))) === undefined;
  }

  async #removeIdFile(record: EntryRecord): Promise<void> {
    const target = await this.#reader.idTarget(record.id).catch(() => undefined);
    if (target && target.session === record.session && target.name === record.name)
      await removeFile(this.#layout.idFile(record.id));
  }
}

/** Creates a driver over the directory `config.root` (created if missing); `STORE_UNAVAILABLE` if unusable. */
export function createFsDriver(config: FsDriverConfig): FsDriver {
  return new FsDriver(config);
}

function checkTotal(record: EntryRecord, index: ChunkIndex): void {
  const total = index.start('byte', index.count);
  if (record.bytes !== total)
    throw new Error(`Record of "${record.name}" says ${record.bytes} bytes; its content has ${total}.`);
}
