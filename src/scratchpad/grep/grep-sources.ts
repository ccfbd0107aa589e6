import { closeSync, openSync, readSync } from 'node:fs';
import type { Chunk } from '../../core/chunk.js';
import { decodeChunks, type StoredChunk } from '../../stores/chunk-codec.js';
import type { ChunkInFile, ChunkSource } from '../../stores/driver.js';

/**
 * Turns chunk sources into chunks in the grep worker: bytes given are used as they are, chunks in files are read
 * by this thread into one buffer reused from batch to batch (fresh buffers cost page faults and garbage
 * collection: reading into a reused one halved the time of a 1 GiB scan), and compressed chunks are decompressed
 * here (`decodeChunks`, in parallel in the thread pool), never on the event loop. A run of chunks stored back to
 * back in one file is one read.
 */
export class SourceReader {
  #buffer = Buffer.allocUnsafe(0);

  /**
   * The chunks of `sources`, in order; bytes read from files stay valid until the next call. Returns `undefined`
   * when a file cannot be opened or is shorter than its chunks say, or bytes do not decompress (the caller reads
   * those chunks through the store, which reports what happened).
   */
  async load(sources: readonly ChunkSource[]): Promise<Chunk[] | undefined> {
    let fileBytes = 0;
    for (const source of sources) if ('file' in source) fileBytes += source.storedBytes;
    if (this.#buffer.byteLength < fileBytes) this.#buffer = Buffer.allocUnsafe(fileBytes);
    const buffer = this.#buffer;
    const stored: StoredChunk[] = [];
    let used = 0;
    for (let index = 0; index < sources.length; ) {
      const source = sources[index] as ChunkSource;
      if (!('file' in source)) {
        stored.push('data' in source ? { ...source, codec: 0, stored: source.data } : source);
        index++;
        continue;
      }
      // The run of chunks that follow each other in the same file.
      let end = index + 1;
      let runBytes = source.storedBytes;
      for (; end < sources.length; end++) {
        const next = sources[end] as ChunkSource;
        if (
          !('file' in next) ||
          next.file !== source.file ||
          next.fileOffset !== source.fileOffset + runBytes
        )
          break;
        runBytes += next.storedBytes;
      }
      if (!readFully(source.file, source.fileOffset, buffer.subarray(used, used + runBytes)))
        return undefined;
      for (let at = index; at < end; at++) {
        const { file: _file, fileOffset: _offset, storedBytes, ...info } = sources[at] as ChunkInFile;
        stored.push({ ...info, stored: buffer.subarray(used, used + storedBytes) });
        used += storedBytes;
      }
      index = end;
    }
    try {
      return await decodeChunks(stored, 'grep');
    } catch {
      return undefined;
    }
  }
}

/** Fills `target` from `path` at `position`; false when the file is missing, unreadable or too short. */
function readFully(path: string, position: number, target: Buffer): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    let done = 0;
    while (done < target.byteLength) {
      const read = readSync(fd, target, done, target.byteLength - done, position + done);
      if (read === 0) return false;
      done += read;
    }
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
