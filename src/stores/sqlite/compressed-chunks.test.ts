import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import { expectCode } from '../../testing/expect-code.js';
import { type ChunkCompression, CODEC_IDS, compressionAvailable } from '../chunk-codec.js';
import { createSqliteDriver, type SqliteDriver } from './index.js';
import { MIGRATIONS } from './sqlite-schema.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-compressed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

const KIB = 1024;
const MIB = 1024 * KIB;

/** Log-like lines with multi-byte characters; compresses well. */
function logText(bytes: number, seed: string): string {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const line = `2026-11-24T16:${String(index % 60).padStart(2, '0')} ${seed} request ${index} — ✓ status=${200 + (index % 7)} user=zoë\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return lines.join('');
}

interface ChunkLayout {
  chunks: number;
  compressed: number;
  external: number;
  bytes: number;
  stored: number;
}

describe('SQLite compressed chunks', () => {
  let path: string;
  let driver: SqliteDriver;
  let pad: Scratchpad;
  const open = (options: { compression?: ChunkCompression; inlineBytes?: number } = {}): void => {
    driver = createSqliteDriver({ path, compression: 'brotli', ...options });
    pad = createScratchpad({ driver });
  };
  const layout = (name: string): ChunkLayout => {
    const raw = openRawConnection(path, { readOnly: true });
    try {
      return raw
        .prepare(
          `SELECT count(*) AS chunks, count(*) FILTER (WHERE codec <> 0) AS compressed,
                  count(chunks.file) AS external, sum(chunks.bytes) AS bytes,
                  sum(coalesce(stored_bytes, chunks.bytes)) AS stored
           FROM entries JOIN chunks ON chunks.content = entries.content WHERE entries.name = ?`,
        )
        .get(name) as ChunkLayout;
    } finally {
      raw.close();
    }
  };
  const sideFileBytes = (): number =>
    readdirSync(`${path}.blobs`).reduce((sum, name) => sum + statSync(join(`${path}.blobs`, name)).size, 0);

  beforeEach(() => {
    const directory = join(root, `case-${++counter}`);
    mkdirSync(directory);
    path = join(directory, 'store.db');
  });
  afterEach(async () => {
    await driver.close();
  });

  it('stores text compressed (brotli) and reads every kind of slice back exactly', async () => {
    open();
    const content = logText(3 * MIB, 'compressed');
    await pad.write('s1', 'log', content);
    const stored = layout('log');
    // Every full chunk shrinks; the short last one may not.
    expect(stored.compressed).toBeGreaterThanOrEqual(stored.chunks - 1);
    expect(stored.bytes).toBe(Buffer.byteLength(content));
    expect(stored.stored).toBeLessThan(stored.bytes / 5);
    expect((await pad.read('s1', 'log')).content).toBe(content);
    const chars = [...content];
    const middle = Math.floor(chars.length / 2);
    const range = await pad.read('s1', 'log', { type: 'range', start: middle, end: middle + 2000 });
    expect(range.content).toBe(chars.slice(middle, middle + 2000).join(''));
    const lines = content.split('\n');
    const page = await pad.read('s1', 'log', { type: 'lines', start: 20_000, end: 20_010 });
    expect(page.content).toBe(`${lines.slice(19_999, 20_010).join('\n')}\n`);
    const grep = await pad.grep('s1', 'log', { pattern: 'request 31337 ' });
    expect(grep.matches.map((match) => match.text)).toEqual([lines[31_337]]);
    expect((await pad.search('s1', 'compressed')).hits.map((hit) => hit.entry.name)).toEqual(['log']);
  });

  it('puts compressed chunks in side files past the inline budget, which holds stored bytes', async () => {
    open({ inlineBytes: 0 });
    const content = logText(2 * MIB, 'external');
    await pad.write('s1', 'log', content);
    const stored = layout('log');
    expect(stored.external).toBe(stored.chunks);
    expect(stored.compressed).toBeGreaterThanOrEqual(stored.chunks - 1);
    expect(sideFileBytes()).toBe(stored.stored);
    expect((await pad.read('s1', 'log')).content).toBe(content);
    const snippets = (await pad.search('s1', 'external')).hits.map((hit) => hit.snippet);
    expect(snippets[0]).toContain('[external]');
    await pad.delete('s1', 'log');
    expect((await pad.search('s1', 'external')).hits).toEqual([]);
  });

  it('keeps chunks that do not shrink as written, and mixes codecs in one entry across appends', async () => {
    open({ inlineBytes: 0 });
    const noise = randomBytes(600 * KIB);
    await pad.write('s1', 'noise', noise);
    expect(layout('noise').compressed).toBe(0);
    expect((await pad.read('s1', 'noise', { type: 'full' }, { encoding: 'base64' })).content).toBe(
      noise.toString('base64'),
    );
    await driver.close();

    open({ compression: 'none' });
    const plain = logText(700 * KIB, 'plain');
    await pad.write('s1', 'mixed', plain);
    expect(layout('mixed').compressed).toBe(0);
    await driver.close();

    open({ compression: 'gzip' });
    const more = logText(700 * KIB, 'more');
    await pad.write('s1', 'mixed', more, { mode: 'append' });
    const mixed = layout('mixed');
    expect(mixed.compressed).toBeGreaterThan(0);
    expect(mixed.compressed).toBeLessThan(mixed.chunks);
    expect((await pad.read('s1', 'mixed')).content).toBe(plain + more);
    expect((await pad.grep('s1', 'mixed', { pattern: '^.* (plain|more) request 5 ' })).matches).toHaveLength(
      2,
    );
  });

  it('reads a store written before compression existed (schema 4) as it is, and writes compressed into it', async () => {
    const legacy = openRawConnection(path);
    legacy.pragma('journal_mode = WAL');
    for (const migration of MIGRATIONS.slice(0, 4)) legacy.exec(migration);
    legacy.pragma('user_version = 4');
    legacy.pragma(`application_id = ${0x53504144}`);
    const old = 'a line written by schema 4\n'.repeat(100);
    const sha256 = createHash('sha256').update(old).digest('hex');
    legacy.exec(`
      INSERT INTO sessions VALUES ('s1', 1, 1);
      INSERT INTO contents (id, session, created_at, committed) VALUES (1, 's1', 1, 1);
      INSERT INTO entries VALUES ('s1', 'old', '0123456789abcdef', NULL, NULL, NULL, 'text', 'text/plain; charset=utf-8',
        ${old.length}, ${old.length}, 100, '${sha256}', 1, 1, NULL, 0, 1, '{}', 1, 1, 0);
      INSERT INTO chunks (id, content, seq, byte_start, char_start, line_start, bytes, chars, newlines)
        VALUES (1, 1, 0, 0, 0, 0, ${old.length}, ${old.length}, 100);
      INSERT INTO chunk_data VALUES (1, CAST('${old}' AS BLOB));
    `);
    legacy.close();
    open();
    expect((await pad.read('s1', 'old')).content).toBe(old);
    expect(layout('old').compressed).toBe(0);
    expect((await pad.search('s1', 'schema')).hits.map((hit) => hit.entry.name)).toEqual(['old']);
    await pad.write('s1', 'old', old, { mode: 'append' });
    expect(layout('old')).toMatchObject({ chunks: 1, compressed: 1 });
    expect((await pad.read('s1', 'old')).content).toBe(old + old);
    expect((await pad.search('s1', 'schema')).hits.map((hit) => hit.entry.name)).toEqual(['old']);
  });

  it('a chunk whose codec this Node lacks, or this version does not know, is CODEC_UNAVAILABLE, not garbage', async () => {
    open();
    await pad.write('s1', 'zstd', logText(100 * KIB, 'zstd'));
    await pad.write('s1', 'future', logText(100 * KIB, 'future'));
    const raw = openRawConnection(path);
    const mark = (name: string, codec: number): void => {
      raw
        .prepare(
          'UPDATE chunks SET codec = ? WHERE content = (SELECT content FROM entries WHERE name = ?) AND seq = 0',
        )
        .run(codec, name);
    };
    mark('zstd', CODEC_IDS.zstd);
    mark('future', 9);
    raw.close();
    const zstd = pad.read('s1', 'zstd');
    if (compressionAvailable('zstd')) await expectCode(zstd, 'STORE_CORRUPT');
    else await expectCode(zstd, 'CODEC_UNAVAILABLE');
    const future = await pad.read('s1', 'future').catch((error: unknown) => error);
    expect(ScratchpadError.hasCode(future, 'CODEC_UNAVAILABLE')).toBe(true);
    expect((future as ScratchpadError).message).toMatch(/codec 9, which is unknown to this version/);
    // Search skips the text it cannot decode (both entries are one chunk); the entries can still be deleted.
    expect((await pad.search('s1', 'request')).hits).toEqual([]);
    await pad.delete('s1', 'zstd');
    await pad.delete('s1', 'future');
  });

  it('compressed bytes that were damaged are STORE_CORRUPT', async () => {
    open();
    await pad.write('s1', 'log', logText(100 * KIB, 'damaged'));
    const raw = openRawConnection(path);
    raw
      .prepare(
        "UPDATE chunk_data SET data = zeroblob(length(data)) WHERE id = (SELECT chunks.id FROM chunks JOIN entries ON entries.content = chunks.content WHERE entries.name = 'log' AND seq = 0)",
      )
      .run();
    raw.close();
    await expectCode(pad.read('s1', 'log'), 'STORE_CORRUPT');
  });

  it('refuses an unknown compression, and zstd where this Node has none', () => {
    const attempt = (compression: unknown): unknown => {
      try {
        createSqliteDriver({ path: ':memory:', compression: compression as ChunkCompression });
        return undefined;
      } catch (error) {
        return error;
      }
    };
    expect(ScratchpadError.hasCode(attempt('lz4'), 'INVALID_ARGUMENT')).toBe(true);
    const zstd = attempt('zstd');
    if (compressionAvailable('zstd')) expect(zstd).toBeUndefined();
    else expect(ScratchpadError.hasCode(zstd, 'CODEC_UNAVAILABLE')).toBe(true);
    open();
  });
});
