import { link, lstat, mkdir, rename, stat } from 'node:fs/promises';
import { ScratchpadError } from '../../core/errors.js';
import { lstatIfExists, removeFile, syncDirectory, tempName, writeFileAtomic } from './atomic-file.js';
import type { RecordReader } from './fs-entries.js';
import { errorCode, guard, isMissing } from './fs-errors.js';
import type { FsLayout } from './fs-layout.js';

/** A session path that exists must be a real directory: a commit never follows a symlink out of the root. */
export async function checkSessionDirectory(directory: string): Promise<void> {
  const info = await guard(directory, 'inspect', () => lstatIfExists(directory));
  if (info && !info.isDirectory()) {
    const what = info.isSymbolicLink() ? 'a symbolic link' : 'not a directory';
    throw new ScratchpadError('STORE_UNAVAILABLE', `${directory} is ${what}, so it cannot hold a session.`, {
      hint: 'Move it away, or use another session id.',
      details: { path: directory },
    });
  }
}

/** Creates a session's directories and `session.json` on its first commit (the caller holds the lock). */
export async function ensureSession(
  layout: FsLayout,
  records: RecordReader,
  session: string,
  now: number,
): Promise<void> {
  if (await records.session(session)) return;
  for (const directory of [
    layout.entriesDirectory(session),
    layout.contentDirectory(session),
    layout.sessionTempDirectory(session),
  ]) {
    await mkdir(directory, { recursive: true });
  }
  const body = `${JSON.stringify({ id: session, createdAt: now })}\n`;
  await writeFileAtomic(layout.sessionFile(session), body, layout.sessionTempFile(session, tempName()));
  await syncDirectory(layout.sessionHidden(session));
  await syncDirectory(layout.sessionDirectory(session));
  await syncDirectory(layout.root);
}

/**
 * Before a new entry's first commit: a `NAME` already there must be one of ours (a link left by a commit that
 * crashed before its record, so it has more than one link); anything else is a person's file, never overwritten.
 */
export async function checkVisibleFree(layout: FsLayout, session: string, name: string): Promise<void> {
  const visible = layout.entryFile(session, name);
  const info = await lstatIfExists(visible);
  if (info && !(info.isFile() && info.nlink > 1)) {
    throw new ScratchpadError(
      'ENTRY_EXISTS',
      `A file the scratchpad did not write is in the way: ${visible}.`,
      {
        hint: 'Move or rename that file, or pick another entry name.',
        details: { path: visible },
      },
    );
  }
}

/**
 * Makes `ROOT/SESSION/NAME` the content file `fileId`: a hard link made under a temporary name and renamed over
 * `NAME`, so `cat` sees the old content or the new one. No fsync of the directory: `NAME` is a view of the
 * record, and the sweep re-links one that a crash lost.
 */
export async function linkVisible(
  layout: FsLayout,
  session: string,
  name: string,
  fileId: string,
): Promise<void> {
  const temp = layout.sessionTempFile(session, tempName());
  await link(layout.contentFile(session, fileId), temp);
  try {
    await rename(temp, layout.entryFile(session, name));
  } finally {
    await removeFile(temp);
  }
}

/** True when `visible` (not followed if a symlink) is the same file as `content`. */
export async function sameFile(visible: string, content: string): Promise<boolean> {
  try {
    const [left, right] = await Promise.all([lstat(visible), stat(content)]);
    return left.ino === right.ino && left.dev === right.dev;
  } catch (error) {
    if (isMissing(error) || errorCode(error) === 'EACCES') return false;
    throw error;
  }
}
