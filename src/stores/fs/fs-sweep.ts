import type { Stats } from 'node:fs';
import { link, readdir, rename, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
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
 * anything unreferenced provably garbage, whatever its age. Returns how many leftovers were removed.
 */
export async function sweepStore(context: SweepContext): Promise<number> {
  const { layout } = context;
  await assertRealDirectories(layout, [
    layout.stagingDirectory,
    layout.storeTempDirectory,
    layout.trashDirectory,
    layout.idsDirectory,
  ]);
  let removed = 0;
  for (const file of await list(layout.stagingDirectory)) {
    if (context.isLiveStaging(file)) continue;
    if (await removeIfOld(join(layout.stagingDirectory, file), context.cutoff)) removed++;
  }
  for (const file of await list(layout.storeTempDirectory)) {
    if (await removeIfOld(join(layout.storeTempDirectory, file), context.cutoff)) removed++;
  }
  for (const item of await list(layout.trashDirectory)) {
    await rm(join(layout.trashDirectory, item), { recursive: true, force: true });
    removed++;
  }
  for (const id of await list(layout.idsDirectory)) {
    if (await removeDanglingId(context, id)) removed++;
  }
  for (const session of await context.reader.sessionIds()) {
    removed += (await context.withLock(session, () => repairSession(context, session))) ?? 0;
  }
  return removed;
}

async function repairSession(context: SweepContext, session: string): Promise<number> {
  const { layout, reader } = context;
  let removed = 0;
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
    if (info?.isFile() && orphanInodes.has(inodeKey(info)) && (await removeFile(path))) removed++;
  }
  for (const path of orphans) if (await removeFile(path)) removed++;
  // Every temporary file of a session is written under its lock, which this sweep holds.
  for (const file of await list(layout.sessionTempDirectory(session))) {
    if (await removeFile(join(layout.sessionTempDirectory(session), file))) removed++;
  }
  return removed;
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

async function removeDanglingId(context: SweepContext, id: string): Promise<boolean> {
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
  return removeFile(path);
}

async function removeIfOld(path: string, cutoff: number): Promise<boolean> {
  const info = await lstatIfExists(path);
  if (!info || info.mtimeMs > cutoff) return false;
  if (info.isDirectory()) {
    await rm(path, { recursive: true, force: true });
    return true;
  }
  return removeFile(path);
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
