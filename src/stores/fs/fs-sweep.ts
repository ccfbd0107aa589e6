import type { Stats } from 'node:fs';
import { link, readdir, rename, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { SweepResult } from '../driver.js';
import { emptySweep } from '../driver-helpers.js';
import { lstatIfExists, removeFile, syncDirectory, tempName } from './atomic-file.js';
import type { RecordReader } from './fs-entries.js';
import { isMissing } from './fs-errors.js';
import { type FsLayout, isStorableName, splitContentId } from './fs-layout.js';
import { assertRealDirectories } from './real-directories.js';

/** What {@link sweepStore} needs from the driver. */
export interface SweepContext {
  layout: FsLayout;
  reader: RecordReader;
  /** Leftovers last modified at or before this time (epoch ms) are abandoned. */
  cutoff: number;
  /** Staging areas this process is still writing are never swept, whatever their age. */
  isLiveStaging: (stagingId: string) => boolean;
  /** Runs `body` holding a session's lock; `undefined` when the session directory is gone. */
  withLock: <T>(session: string, body: () => Promise<T>) => Promise<T | undefined>;
}

/**
 * Cleans up after crashed writers and repairs each session (see `FsDriver.doSweepStaging`). Store-wide leftovers
 * are judged by age, because another process may be using them right now; inside a session, the lock makes
 * anything unreferenced provably garbage, whatever its age. Returns the abandoned staging files it removed and
 * every file it deleted with the space that gave back (a file's last link only: removing one of two names of a
 * file frees nothing). Deleted entries' files go at once, so nothing is ever held for readers.
 */
export async function sweepStore(context: SweepContext): Promise<SweepResult> {
  const { layout } = context;
  await assertRealDirectories(layout, [
    layout.stagingDirectory,
    layout.storeTempDirectory,
    layout.trashDirectory,
    layout.idsDirectory,
  ]);
  const result = emptySweep();
  const removed = new RemovedFiles(result.files);
  for (const file of await list(layout.stagingDirectory)) {
    if (context.isLiveStaging(file)) continue;
    if (await removeIfOld(removed, join(layout.stagingDirectory, file), context.cutoff)) result.staging++;
  }
  for (const file of await list(layout.storeTempDirectory)) {
    if (await removeIfOld(removed, join(layout.storeTempDirectory, file), context.cutoff)) result.staging++;
  }
  for (const item of await list(layout.trashDirectory)) {
    await removed.tree(join(layout.trashDirectory, item));
  }
  for (const id of await list(layout.idsDirectory)) {
    await removeDanglingId(context, removed, id);
  }
  for (const session of await context.reader.sessionIds()) {
    await context.withLock(session, () => repairSession(context, removed, session));
  }
  return result;
}

/** Deletes files and directory trees, adding what each gave back to a sweep's tally. */
class RemovedFiles {
  readonly #tally: SweepResult['files'];

  constructor(tally: SweepResult['files']) {
    this.#tally = tally;
  }

  /** Unlinks a file; true when it existed. Its size counts when this was its last name. */
  async file(path: string): Promise<boolean> {
    const info = await lstatIfExists(path);
    if (!(await removeFile(path))) return false;
    this.#tally.count++;
    if (info && info.nlink <= 1) this.#tally.bytes += info.size;
    return true;
  }

  /** Removes a directory tree (or a file), counting the files in it. */
  async tree(path: string): Promise<void> {
    const info = await lstatIfExists(path);
    if (!info) return;
    if (!info.isDirectory()) {
      await this.file(path);
      return;
    }
    const found = { count: 0, bytes: 0 };
    await measureTree(path, found);
    await rm(path, { recursive: true, force: true });
    this.#tally.count += found.count;
    this.#tally.bytes += found.bytes;
  }
}

/** Adds the files under `directory` (recursively) and the bytes their last names hold. */
async function measureTree(directory: string, found: { count: number; bytes: number }): Promise<void> {
  for (const item of await list(directory)) {
    const path = join(directory, item);
    const info = await lstatIfExists(path);
    if (!info) continue;
    if (info.isDirectory()) {
      await measureTree(path, found);
      continue;
    }
    found.count++;
    if (info.nlink <= 1) found.bytes += info.size;
  }
}

async function repairSession(context: SweepContext, removed: RemovedFiles, session: string): Promise<void> {
  const { layout, reader } = context;
  const records = await reader.sessionRecords(session);
  const referenced = new Set<string>();
  for (const record of records) {
    referenced.add(splitContentId(record.contentId).fileId);
    referenced.add(`${record.contentId}.idx`);
  }
  const contentDirectory = layout.contentDirectory(session);
  const orphans: string[] = [];
  const orphanInodes = new Map<string, string>();
  for (const file of await list(contentDirectory)) {
    if (referenced.has(file)) continue;
    const path = join(contentDirectory, file);
    orphans.push(path);
    const info = await lstatIfExists(path);
    if (info && !file.endsWith('.idx')) orphanInodes.set(inodeKey(info), path);
  }
  for (const record of records) {
    const contentPath = layout.contentFile(session, splitContentId(record.contentId).fileId);
    const content = await stat(contentPath).catch(() => undefined);
    if (!content) continue; // reads report STORE_CORRUPT; nothing here can bring the bytes back
    if (content.size > record.bytes) await truncate(contentPath, record.bytes); // an interrupted in-place append
    const visible = layout.entryFile(session, record.name);
    const shown = await lstatIfExists(visible);
    if (!shown || (shown.isFile() && orphanInodes.has(inodeKey(shown)))) {
      await relink(context, session, contentPath, visible);
    }
  }
  // A NAME that links to an unreferenced content file is an uncommitted creation: it is ours to remove.
  const names = new Set(records.map((record) => record.name));
  for (const item of await list(layout.sessionDirectory(session))) {
    if (names.has(item) || !isStorableName(item)) continue;
    const path = layout.entryFile(session, item);
    const info = await lstatIfExists(path);
    if (info?.isFile() && orphanInodes.has(inodeKey(info))) await removed.file(path);
  }
  for (const path of orphans) await removed.file(path);
  // Every temporary file of a session is written under its lock, which this sweep holds.
  for (const file of await list(layout.sessionTempDirectory(session))) {
    await removed.file(join(layout.sessionTempDirectory(session), file));
  }
}

async function relink(
  context: SweepContext,
  session: string,
  contentPath: string,
  visible: string,
): Promise<void> {
  const temp = context.layout.sessionTempFile(session, tempName());
  await link(contentPath, temp);
  try {
    await rename(temp, visible);
  } finally {
    await removeFile(temp);
  }
  await syncDirectory(context.layout.sessionDirectory(session));
}

async function removeDanglingId(context: SweepContext, removed: RemovedFiles, id: string): Promise<boolean> {
  let path: string;
  try {
    path = context.layout.idFile(id);
  } catch {
    return false; // not a file this driver writes
  }
  const info = await lstatIfExists(path);
  if (!info || info.mtimeMs > context.cutoff) return false;
  const target = await context.reader.idTarget(id).catch(() => undefined);
  if (target) {
    // A record that cannot be read right now may still be this id's: keep the id file until it can.
    const record = await context.reader.record(target.session, target.name).catch(() => null);
    if (record === null || record?.id === id) return false;
  }
  return removed.file(path);
}

async function removeIfOld(removed: RemovedFiles, path: string, cutoff: number): Promise<boolean> {
  const info = await lstatIfExists(path);
  if (!info || info.mtimeMs > cutoff) return false;
  if (info.isDirectory()) {
    await removed.tree(path);
    return true;
  }
  return removed.file(path);
}

async function list(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

function inodeKey(info: Stats): string {
  return `${info.dev}:${info.ino}`;
}
