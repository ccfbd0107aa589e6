import { type FileHandle, open } from 'node:fs/promises';
import { ScratchpadError } from '../../core/errors.js';
import { readFully, writeAll } from './atomic-file.js';

const PIECE = 1024 * 1024;

/**
 * How an append lands in a plain content file.
 *
 * The service appends by keeping chunks `[0, keep)` and staging the rewritten tail chunk plus the new bytes, so the
 * staged content usually starts with bytes the file already has at `keptBytes`. When it does, the new bytes are
 * written **in place** after the committed end (`committedBytes`) of the same file: O(appended), and the visible
 * `NAME` (a hard link to the same inode) grows with it. This never rewrites a committed byte: every reader is
 * bounded by the record it read (`bytes`, `chunkCount`), and the record that covers the new bytes is renamed into
 * place only after they are fsynced. A crash before that commit leaves extra bytes past the committed end, which
 * no reader sees, the next append overwrites and the sweep truncates.
 *
 * When the staged bytes do not extend what is there (a caller that truncates or rewrites kept bytes), the append
 * is done **copy-on-write** instead: a new content file with the kept prefix and the staged bytes, O(entry).
 */
export async function canAppendInPlace(
  contentPath: string,
  committedBytes: number,
  keptBytes: number,
  stagedPath: string,
  stagedBytes: number,
): Promise<boolean> {
  const overlap = committedBytes - keptBytes;
  if (overlap < 0 || stagedBytes < overlap) return false;
  const content = await open(contentPath, 'r');
  try {
    if ((await content.stat()).size < committedBytes) return false;
    const staged = await open(stagedPath, 'r');
    try {
      return await sameBytes(content, keptBytes, staged, 0, overlap);
    } finally {
      await staged.close();
    }
  } finally {
    await content.close();
  }
}

/** Writes staged bytes `[committedBytes - keptBytes, stagedBytes)` after the committed end, trims, fsyncs. */
export async function appendInPlace(
  contentPath: string,
  committedBytes: number,
  keptBytes: number,
  stagedPath: string,
  stagedBytes: number,
): Promise<void> {
  const content = await open(contentPath, 'r+');
  try {
    const staged = await open(stagedPath, 'r');
    try {
      const overlap = committedBytes - keptBytes;
      await copyRange(staged, overlap, content, committedBytes, stagedBytes - overlap, stagedPath);
    } finally {
      await staged.close();
    }
    await content.truncate(keptBytes + stagedBytes);
    await content.sync();
  } finally {
    await content.close();
  }
}

/** Writes `targetPath` (a new file) with bytes `[0, keptBytes)` of the old content then all staged bytes; fsyncs. */
export async function copyOnWrite(
  contentPath: string,
  keptBytes: number,
  stagedPath: string,
  stagedBytes: number,
  targetPath: string,
): Promise<void> {
  const target = await open(targetPath, 'wx');
  try {
    const content = await open(contentPath, 'r');
    try {
      await copyRange(content, 0, target, 0, keptBytes, contentPath);
    } finally {
      await content.close();
    }
    const staged = await open(stagedPath, 'r');
    try {
      await copyRange(staged, 0, target, keptBytes, stagedBytes, stagedPath);
    } finally {
      await staged.close();
    }
    await target.sync();
  } finally {
    await target.close();
  }
}

async function copyRange(
  source: FileHandle,
  sourcePosition: number,
  target: FileHandle,
  targetPosition: number,
  length: number,
  sourcePath: string,
): Promise<void> {
  const buffer = Buffer.allocUnsafe(Math.min(PIECE, Math.max(1, length)));
  for (let done = 0; done < length; ) {
    const want = Math.min(buffer.byteLength, length - done);
    const read = await readFully(source, buffer, 0, want, sourcePosition + done);
    if (read < want) {
      throw new ScratchpadError(
        'STORE_CORRUPT',
        `${sourcePath} is shorter than its record says (${sourcePosition + done + read} bytes).`,
        {
          hint: 'The content file was truncated outside the scratchpad; delete the entry and write it again.',
          details: { path: sourcePath },
        },
      );
    }
    await writeAll(target, buffer.subarray(0, read), targetPosition + done);
    done += read;
  }
}

async function sameBytes(
  a: FileHandle,
  aPosition: number,
  b: FileHandle,
  bPosition: number,
  length: number,
): Promise<boolean> {
  const size = Math.min(PIECE, Math.max(1, length));
  const left = Buffer.allocUnsafe(size);
  const right = Buffer.allocUnsafe(size);
  for (let done = 0; done < length; ) {
    const want = Math.min(size, length - done);
    const [readLeft, readRight] = await Promise.all([
      readFully(a, left, 0, want, aPosition + done),
      readFully(b, right, 0, want, bPosition + done),
    ]);
    if (readLeft !== want || readRight !== want || !left.subarray(0, want).equals(right.subarray(0, want)))
      return false;
    done += want;
  }
  return true;
}
