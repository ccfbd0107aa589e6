import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHUNK_SIZE } from '../../core/chunk.js';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import { CODEC_IDS } from '../chunk-codec.js';
import { createMemoryDriver } from '../memory/memory-driver.js';
import { createSqliteDriver, type SqliteDriver } from './index.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';

const GIB = 1024 ** 3;
const LINES = GIB / 8;
/** A generous bound on how much a refused bomb may raise the process's peak memory (the bomb itself is 1 GiB). */
const MEMORY_BOUND_BYTES = 200 * 1024 ** 2;

/** A brotli stream of 1 GiB of 8-byte lines (`aaaaaaa\n`; about 190 KB, made at quality 1 in a fraction of a second). */
async function brotliBomb(): Promise<Buffer> {
  const piece = Buffer.alloc(16 * 1024 ** 2, 'aaaaaaa\n');
  const encoder = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
  const parts: Buffer[] = [];
  encoder.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => encoder.on('end', resolve));
  for (let written = 0; written < GIB; written += piece.byteLength) {
    if (!encoder.write(piece)) await new Promise((resolve) => encoder.once('drain', resolve));
  }
  encoder.end();
  await ended;
  return Buffer.concat(parts);
}

/** How far the process's peak resident memory rose while `work` ran, in bytes. */
async function peakMemoryRise(work: () => Promise<unknown>): Promise<number> {
  const before = process.resourceUsage().maxRSS * 1024;
  await work();
  return process.resourceUsage().maxRSS * 1024 - before;
}

describe('SQLite store with a decompression bomb planted in a chunk row', () => {
  const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-bomb-'));
  const path = join(root, 'store.db');
  let bomb: Buffer;
  let driver: SqliteDriver;
  let pad: Scratchpad;
  beforeAll(async () => {
    bomb = await brotliBomb();
  });
  afterEach(async () => {
    await driver.close();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** Writes one one-chunk entry, then replaces its chunk by the bomb with every size set to match 1 GiB. */
  async function plantBomb(): Promise<void> {
    driver = createSqliteDriver({ path, compression: 'brotli' });
    pad = createScratchpad({ driver });
    await pad.write('s1', 'log', 'a line of text that compresses well enough\n'.repeat(50));
    const raw = openRawConnection(path);
    try {
      const chunk = raw
        .prepare(
          "SELECT chunks.id AS id, chunks.file AS file FROM chunks JOIN entries ON entries.content = chunks.content WHERE entries.name = 'log' AND seq = 0",
        )
        .get() as { id: number; file: number | null };
      expect(chunk.file).toBeNull();
      raw.prepare('UPDATE chunk_data SET data = ? WHERE id = ?').run(bomb, chunk.id);
      raw
        .prepare(
          'UPDATE chunks SET codec = ?, bytes = ?, chars = ?, newlines = ?, stored_bytes = ? WHERE id = ?',
        )
        .run(CODEC_IDS.brotli, GIB, GIB, LINES, bomb.byteLength, chunk.id);
      raw
        .prepare("UPDATE entries SET bytes = ?, chars = ?, lines = ? WHERE name = 'log'")
        .run(GIB, GIB, LINES);
    } finally {
      raw.close();
    }
  }

  it('a read is STORE_CORRUPT at once, without decompressing the bomb', async () => {
    await plantBomb();
    let failure: unknown;
    const rise = await peakMemoryRise(async () => {
      failure = await pad
        .read('s1', 'log', { type: 'lines', start: 1, end: 1 })
        .catch((error: unknown) => error);
    });
    expect(failure).toMatchObject({ code: 'STORE_CORRUPT' });
    expect((failure as Error).message).toMatch(/Chunk 0 of "s1\/log" claims 1073741824 bytes/);
    expect(rise).toBeLessThan(MEMORY_BOUND_BYTES);
  });

  it('a grep is STORE_CORRUPT at once, without decompressing the bomb', async () => {
    await plantBomb();
    let failure: unknown;
    const rise = await peakMemoryRise(async () => {
      failure = await pad.grep('s1', 'log', { pattern: 'needle' }).catch((error: unknown) => error);
    });
    expect(failure).toMatchObject({ code: 'STORE_CORRUPT' });
    expect(rise).toBeLessThan(MEMORY_BOUND_BYTES);
  });
});

describe('the largest chunk', () => {
  it('a scratchpad refuses a chunkSize over it, so every chunk it writes passes the read check', () => {
    const driver = createMemoryDriver();
    expect(() => createScratchpad({ driver, chunkSize: MAX_CHUNK_SIZE + 1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => createScratchpad({ driver, chunkSize: MAX_CHUNK_SIZE })).not.toThrow();
  });
});
