import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { type FileHandle, lstat, open, readFile, rename, unlink } from 'node:fs/promises';
import { errorCode, isMissing } from './fs-errors.js';

/** A unique name for a temporary file: the process id and random hex, so two processes never collide. */
export function tempName(): string {
  return `${process.pid.toString(36)}-${randomBytes(8).toString('hex')}`;
}

/**
 * Writes `data` to `path` atomically: a temporary file in `tempPath` (same file system) is written, fsynced and
 * renamed over `path`, so a reader (or a crash) sees the old file or the new one, never a part of it. The caller
 * fsyncs `path`'s directory (once for several renames) to make the rename itself durable.
 */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array | string,
  tempPath: string,
): Promise<void> {
  try {
    await writeDurable(tempPath, data);
    await rename(tempPath, path);
  } catch (error) {
    await removeFile(tempPath);
    throw error;
  }
}

/** Writes `data` to the new file `path` and fsyncs it (the first half of an atomic write). */
export async function writeDurable(path: string, data: Uint8Array | string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes the renames and links done in `directory` durable. A no-op where directories cannot be fsynced (Windows). */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF' && code !== 'EACCES')
      throw error;
  } finally {
    await handle?.close();
  }
}

/** The file's text, or `undefined` when it (or a directory on its path) does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** `lstat` of `path` (a symlink is not followed), or `undefined` when it does not exist. */
export async function lstatIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Unlinks `path`; true when it existed. */
export async function removeFile(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** Writes all of `data` at `position` (positional writes may be short). */
export async function writeAll(handle: FileHandle, data: Uint8Array, position: number): Promise<void> {
  let written = 0;
  while (written < data.byteLength) {
    const result = await handle.write(data, written, data.byteLength - written, position + written);
    written += result.bytesWritten;
  }
}

/** Reads up to `length` bytes at `position` into `buffer` at `offset`; returns how many were read (short at EOF). */
export async function readFully(
  handle: FileHandle,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  let read = 0;
  while (read < length) {
    const result = await handle.read(buffer, offset + read, length - read, position + read);
    if (result.bytesRead === 0) break;
    read += result.bytesRead;
  }
  return read;
}
