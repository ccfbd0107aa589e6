import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChunkInFile } from '../../stores/driver.js';
import { SourceReader } from './grep-sources.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'scratchpad-grep-sources-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** A file of `chunks` chunks of `size` bytes, chunk k filled with the letter `letter + k`, and its sources. */
function chunkFile(name: string, letter: string, chunks: number, size: number): ChunkInFile[] {
  const file = join(directory, name);
  const first = letter.charCodeAt(0);
  writeFileSync(file, Buffer.concat(Array.from({ length: chunks }, (_, k) => Buffer.alloc(size, first + k))));
  return Array.from({ length: chunks }, (_, seq) => ({
    seq,
    byteStart: seq * size,
    charStart: seq * size,
    lineStart: 0,
    bytes: size,
    chars: size,
    newlines: 0,
    codec: 0,
    storedBytes: size,
    file,
    fileOffset: seq * size,
  }));
}

function text(chunks: { data: Uint8Array }[] | undefined): string[] {
  return (chunks ?? []).map((chunk) => {
    const data = Buffer.from(chunk.data);
    return `${String.fromCharCode(data[0] as number)}${data.byteLength}${data.every((byte) => byte === data[0]) ? '' : '!'}`;
  });
}

describe('SourceReader read-ahead', () => {
  it('a prefetched batch loads the same bytes as a direct read, and the batch before stays intact meanwhile', async () => {
    const sources = chunkFile('a', 'a', 8, 64 * 1024);
    const reader = new SourceReader();
    const first = await reader.load(sources.slice(0, 4));
    const second = sources.slice(4, 8);
    reader.prefetch(second);
    // The read-ahead runs in the thread pool while batch 1's bytes are still in use.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(text(first)).toEqual(['a65536', 'b65536', 'c65536', 'd65536']);
    expect(text(await reader.load(second))).toEqual(['e65536', 'f65536', 'g65536', 'h65536']);
    await reader.release();
  });

  it('a read-ahead that is not loaded (a scan that stopped early) never overwrites the next scan’s bytes', async () => {
    const a = chunkFile('a', 'a', 6, 256 * 1024);
    const z = chunkFile('z', 'p', 3, 256 * 1024);
    const reader = new SourceReader();
    await reader.load(a.slice(0, 3));
    reader.prefetch(a.slice(3, 6));
    await reader.release();
    const loaded = await reader.load(z);
    reader.prefetch(a.slice(0, 3));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(text(loaded)).toEqual(['p262144', 'q262144', 'r262144']);
    // A prefetch of other sources than the next load's: that load reads the other buffer.
    const other = await reader.load(a.slice(3, 6));
    expect(text(other)).toEqual(['d262144', 'e262144', 'f262144']);
    await reader.release();
  });

  it('a file missing or shorter than its chunks say loads as undefined, directly or ahead', async () => {
    const sources = chunkFile('a', 'a', 4, 1024);
    const reader = new SourceReader();
    const missing = sources.map((source) => ({ ...source, file: join(directory, 'gone') }));
    expect(await reader.load(missing)).toBeUndefined();
    const short = sources.map((source) => ({ ...source, fileOffset: source.fileOffset + 2048 }));
    expect(await reader.load(short)).toBeUndefined();
    reader.prefetch(short);
    expect(await reader.load(short)).toBeUndefined();
    expect(text(await reader.load(sources))).toEqual(['a1024', 'b1024', 'c1024', 'd1024']);
    await reader.release();
  });

  it('opens a file once per scan: after release, a file replaced under the same name is read anew', async () => {
    const before = chunkFile('a', 'a', 2, 1024);
    const reader = new SourceReader();
    expect(text(await reader.load(before))).toEqual(['a1024', 'b1024']);
    await reader.release();
    unlinkSync(join(directory, 'a'));
    const after = chunkFile('a', 'x', 2, 1024);
    expect(text(await reader.load(after))).toEqual(['x1024', 'y1024']);
    await reader.release();
  });

  it('ignores a read-ahead asked for after release (a scan that ended): it would hold the old file', async () => {
    const before = chunkFile('late', 'a', 2, 1024);
    const reader = new SourceReader();
    expect(text(await reader.load(before))).toEqual(['a1024', 'b1024']);
    await reader.release();
    // The worker's look-ahead can answer after the scan's end: that prefetch must not open the file.
    reader.prefetch(before);
    unlinkSync(join(directory, 'late'));
    const after = chunkFile('late', 'x', 2, 1024);
    expect(text(await reader.load(after))).toEqual(['x1024', 'y1024']);
    await reader.release();
  });
});
