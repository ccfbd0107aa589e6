import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import { testRecord } from '../../testing/test-record.js';
import { BlobDirectory } from './blob-directory.js';
import { registerChunkTextFunction } from './chunk-text-function.js';
import { createSqliteDriver, RETIRED_CONTENT_RETENTION_MS, type SqliteDriver } from './index.js';
import { MIGRATIONS, SCHEMA_VERSION } from './sqlite-schema.js';
import { openRawConnection, type RawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-side-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

const KIB = 1024;
const MIB = 1024 * 1024;

/** Deterministic text with multi-byte characters and lines, `bytes` long give or take a line. */
function text(bytes: number, seed: string): string {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const line = `${seed} line ${index} — ünïcødé ✓ 𝄞 ${'x'.repeat(index % 70)}\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return lines.join('');
}

async function streamed(pad: Scratchpad, name: string): Promise<Buffer> {
  const { pieces } = await pad.stream('s1', name);
  const parts: Uint8Array[] = [];
  for await (const piece of pieces) parts.push(piece);
  return Buffer.concat(parts);
}

describe('SQLite side files for large contents', () => {
  let clock: number;
  let path: string;
  let driver: SqliteDriver;
  let pad: Scratchpad;
  let raw: RawConnection;
  const files = (): string[] => (existsSync(`${path}.blobs`) ? readdirSync(`${path}.blobs`).sort() : []);
  const count = (sql: string, ...parameters: unknown[]): number =>
    (raw.prepare(sql).get(...parameters) as { count: number }).count;
  const layout = (name: string): { inline: number; external: number; files: number } =>
    raw
      .prepare(
        `SELECT count(*) FILTER (WHERE chunks.file IS NULL) AS inline, count(chunks.file) AS external,
                count(DISTINCT chunks.file) AS files
         FROM entries JOIN chunks ON chunks.content = entries.content WHERE entries.name = ?`,
      )
      .get(name) as { inline: number; external: number; files: number };
  // Uncompressed, so side-file sizes are content sizes (compressed chunks: compressed-chunks.test.ts).
  const open = (options: { inlineBytes?: number; chunkSize?: number } = {}): void => {
    driver = createSqliteDriver({
      path,
      compression: 'none',
      now: () => clock,
      ...(options.inlineBytes === undefined ? {} : { inlineBytes: options.inlineBytes }),
    });
    pad = createScratchpad({ driver, now: () => clock, chunkSize: options.chunkSize ?? 256 * KIB });
  };

  beforeEach(() => {
    clock = 1_700_000_000_000;
    const directory = join(root, `case-${++counter}`);
    mkdirSync(directory);
    path = join(directory, 'store.db');
    open();
    raw = openRawConnection(path);
    registerChunkTextFunction(raw, new BlobDirectory(path));
  });
  afterEach(async () => {
    await driver.close();
    raw.close();
  });

  it('refuses an inline budget that is not a byte count', () => {
    for (const inlineBytes of [-1, Number.NaN]) {
      const error = (() => {
        try {
          createSqliteDriver({ path, inlineBytes });
        } catch (caught) {
          return caught;
        }
      })();
      expect(ScratchpadError.hasCode(error, 'INVALID_ARGUMENT')).toBe(true);
    }
  });

  it('keeps a small entry in the database file alone', async () => {
    await pad.write('s1', 'small', text(900 * KIB, 'small'));
    expect(layout('small').external).toBe(0);
    expect(files()).toEqual([]);
  });

  it('stores the first MiB of a large entry inline and the rest in one side file, byte for byte', async () => {
    const content = text(5 * MIB, 'large');
    const { entry } = await pad.write('s1', 'large', content);
    const record = (await driver.doGetEntry('s1', 'large')) as EntryRecord;
    expect(layout('large')).toEqual({ inline: 4, external: record.chunkCount - 4, files: 1 });
    const inlineBytes = count('SELECT sum(bytes) AS count FROM chunks WHERE file IS NULL');
    expect(inlineBytes).toBeLessThanOrEqual(MIB);
    expect(inlineBytes).toBeGreaterThan(MIB - 16);
    const [file] = files();
    expect(file).toMatch(/^\d+-[0-9a-f]{12}$/);
    expect(statSync(join(`${path}.blobs`, file as string)).size).toBe(entry.bytes - inlineBytes);
    expect(count('SELECT count(*) AS count FROM chunk_data')).toBe(4);

    expect((await pad.read('s1', 'large')).content).toBe(content);
    expect(entry.sha256).toBe(createHash('sha256').update(content).digest('hex'));
    // A range across the boundary between the last inline chunk (ending near 1 MiB) and the first external one.
    const chars = [...content];
    const start = [...Buffer.from(content).subarray(0, MIB).toString()].length - 500;
    expect((await pad.read('s1', 'large', { type: 'range', start, end: start + 1000 })).content).toBe(
      chars.slice(start, start + 1000).join(''),
    );
    const lines = content.split('\n');
    expect((await pad.read('s1', 'large', { type: 'lines', start: 9000, end: 9004 })).content).toBe(
      `${lines.slice(8999, 9004).join('\n')}\n`,
    );
  });

  it('round-trips binary bytes exactly, with chunk boundaries across inline and external storage', async () => {
    await driver.close();
    open({ inlineBytes: 200, chunkSize: 64 });
    const data = randomBytes(64 * 50 + 17);
    const { entry } = await pad.write('s1', 'blob', data, { kind: 'binary' });
    expect(entry.kind).toBe('binary');
    // Three chunks of at most 64 bytes fit in 200 inline bytes; a fourth would not.
    const record = (await driver.doGetEntry('s1', 'blob')) as EntryRecord;
    expect(layout('blob')).toEqual({ inline: 3, external: record.chunkCount - 3, files: 1 });
    expect(Buffer.compare(await streamed(pad, 'blob'), data)).toBe(0);
    const total = record.chunkCount;
    for (const [from, to] of [
      [1, 6],
      [2, 4],
      [0, total],
      [total - 1, total],
    ] as const) {
      const chunks = await driver.doReadChunks(record, from, to);
      expect(chunks.map((chunk) => chunk.seq)).toEqual(Array.from({ length: to - from }, (_, i) => from + i));
      const first = chunks[0] as { byteStart: number };
      const last = chunks[chunks.length - 1] as { byteStart: number; bytes: number };
      expect(
        Buffer.compare(
          Buffer.concat(chunks.map((chunk) => chunk.data)),
          data.subarray(first.byteStart, last.byteStart + last.bytes),
        ),
      ).toBe(0);
    }
  });

  it('an append to a large entry stages into a new side file; the entry spans both files', async () => {
    const first = text(3 * MIB, 'first');
    await pad.write('s1', 'log', first);
    expect(files()).toHaveLength(1);
    const second = text(2 * MIB, 'second');
    const { entry } = await pad.write('s1', 'log', second, { mode: 'append' });
    expect(files()).toHaveLength(2);
    const shape = layout('log');
    expect(shape.files).toBe(2);
    expect(shape.inline).toBe(8);
    const whole = first + second;
    expect(entry.sha256).toBe(createHash('sha256').update(whole).digest('hex'));
    expect((await pad.read('s1', 'log')).content).toBe(whole);
    const tail = (await pad.read('s1', 'log', { type: 'tail', count: 50_000 })).content;
    expect(tail).toBe([...whole].slice(-50_000).join(''));
    // A small append stays inline (after rewriting the short tail chunk with it).
    await pad.write('s1', 'log', 'the end\n', { mode: 'append' });
    expect(files()).toHaveLength(2);
    expect((await pad.read('s1', 'log', { type: 'lines', start: -1 })).content).toBe('the end\n');
    expect((await pad.get('s1', 'log')).sha256).toBe(
      createHash('sha256').update(`${whole}the end\n`).digest('hex'),
    );
  });

  it('replaced, deleted and session-deleted contents lose their side files once the retention is over', async () => {
    await pad.write('s1', 'replaced', text(2 * MIB, 'one'));
    await pad.write('s1', 'deleted', text(2 * MIB, 'two'));
    await pad.write('s2', 'in-session', text(2 * MIB, 'three'));
    const [replacedFile] = files();
    const old = (await driver.doGetEntry('s1', 'replaced')) as EntryRecord;
    expect(files()).toHaveLength(3);

    await pad.write('s1', 'replaced', 'small now');
    await pad.delete('s1', 'deleted');
    await pad.deleteSession('s2');
    // Retired, not gone: a reader that resolved the old version still reads it.
    expect(files()).toHaveLength(3);
    const stale = await driver.doReadChunks(old, old.chunkCount - 1, old.chunkCount);
    expect(stale).toHaveLength(1);

    clock += RETIRED_CONTENT_RETENTION_MS + 1;
    await pad.write('s1', 'other', 'any commit purges what retired long enough ago');
    expect(files()).toEqual([]);
    expect(count('SELECT count(*) AS count FROM blob_files')).toBe(0);
    expect(replacedFile).toBeDefined();
    const error = await driver.doReadChunks(old, 0, old.chunkCount).catch((caught: unknown) => caught);
    expect(ScratchpadError.hasCode(error, 'VERSION_CONFLICT')).toBe(true);
    expect((error as ScratchpadError).details).toMatchObject({ changedWhileReading: true });
  });

  it('gc reports side files kept for readers after a delete, then frees them and says how much', async () => {
    const big = text(5 * MIB, 'big');
    await pad.write('s1', 'big', big);
    const [sideFile] = files();
    const onDisk = statSync(join(`${path}.blobs`, sideFile as string)).size;
    expect(onDisk).toBeGreaterThan(3 * MIB);
    await pad.delete('s1', 'big');

    const atOnce = await pad.gc();
    expect(atOnce).toMatchObject({
      removed: [],
      bytes: 0,
      released: { contents: 0, bytes: 0 },
      files: { count: 0, bytes: 0 },
      held: { contents: 1, bytes: Buffer.byteLength(big), until: clock + RETIRED_CONTENT_RETENTION_MS },
    });
    expect(files()).toHaveLength(1);

    clock += RETIRED_CONTENT_RETENTION_MS;
    const later = await pad.gc();
    expect(later).toMatchObject({
      removed: [],
      released: { contents: 1, bytes: Buffer.byteLength(big) },
      files: { count: 1, bytes: onDisk },
      held: { contents: 0, bytes: 0, until: null },
    });
    expect(files()).toEqual([]);
  });

  it('gc removes leftovers of a writer that died: its staging area, its side file and unregistered files', async () => {
    const sink = await driver.doStage('s1');
    const content = Buffer.from(text(2 * MIB, 'crashed'));
    const { Chunker } = await import('../../core/chunker.js');
    const chunker = new Chunker(256 * KIB);
    for (const chunk of [...chunker.push(content), ...chunker.flush()]) await sink.write(chunk);
    // The process ends without committing or aborting (its driver is never closed: closing would discard the
    // area); a file whose deletion failed is also lying around.
    const crashed = driver;
    writeFileSync(join(`${path}.blobs`, '999-0123456789ab'), 'orphan');
    expect(files()).toHaveLength(2);

    open();
    clock += 30 * 60 * 1000;
    expect((await pad.gc()).staging).toBe(0);
    expect(files()).toHaveLength(1);
    clock += 31 * 60 * 1000;
    expect((await pad.gc()).staging).toBe(1);
    expect(files()).toEqual([]);
    expect(count('SELECT count(*) AS count FROM blob_files')).toBe(0);
    expect(count('SELECT count(*) AS count FROM chunks')).toBe(0);
    await crashed.close();
  });

  it('aborting a large staging area deletes its side file at once', async () => {
    const sink = await driver.doStage('s1');
    const { Chunker } = await import('../../core/chunker.js');
    const chunker = new Chunker(256 * KIB);
    for (const chunk of [...chunker.push(Buffer.from(text(2 * MIB, 'aborted'))), ...chunker.flush()]) {
      await sink.write(chunk);
    }
    expect(files()).toHaveLength(1);
    await sink.abort();
    expect(files()).toEqual([]);
    expect(count('SELECT count(*) AS count FROM contents')).toBe(0);
    await expect(
      sink.write({
        seq: 0,
        byteStart: 0,
        charStart: 0,
        lineStart: 0,
        bytes: 1,
        chars: 1,
        newlines: 0,
        data: Buffer.from('x'),
      }),
    ).rejects.toThrow(/no longer exists/);
  });

  it('a side file deleted under a live entry is STORE_CORRUPT; the entry can still be deleted', async () => {
    await pad.write('s1', 'doc', text(2 * MIB, 'doc'));
    await pad.search('s1', 'doc');
    const [file] = files();
    unlinkSync(join(`${path}.blobs`, file as string));
    const error = await pad.read('s1', 'doc').catch((caught: unknown) => caught);
    expect(ScratchpadError.hasCode(error, 'STORE_CORRUPT')).toBe(true);
    expect((error as ScratchpadError).message).toContain(file);
    expect((error as ScratchpadError).hint).toContain('.blobs');
    // The first MiB is inline and still readable.
    expect((await pad.read('s1', 'doc', { type: 'head', count: 100 })).content).toBe(
      [...text(2 * MIB, 'doc')].slice(0, 100).join(''),
    );
    await pad.delete('s1', 'doc');
    expect((await pad.list('s1')).entries).toEqual([]);
  });

  it('a side file cut short is STORE_CORRUPT', async () => {
    await pad.write('s1', 'doc', text(2 * MIB, 'doc'));
    const [file] = files();
    writeFileSync(join(`${path}.blobs`, file as string), 'short');
    const error = await pad.read('s1', 'doc', { type: 'tail', count: 10 }).catch((caught: unknown) => caught);
    expect(ScratchpadError.hasCode(error, 'STORE_CORRUPT')).toBe(true);
  });

  it('search indexes text in side files, with snippets, and keeps the index consistent', async () => {
    const content = `${text(1100 * KIB, 'filler')}the zanzibar incident started here\n${text(300 * KIB, 'more')}`;
    await pad.write('s1', 'incident', content);
    expect(layout('incident').external).toBeGreaterThan(0);
    // A search answers from the part indexed so far (saying so) while its time to wait runs out on a loaded machine.
    let found = await pad.search('s1', 'zanzibar');
    while (found.indexing) found = await pad.search('s1', 'zanzibar');
    const hits = found.hits;
    expect(hits.map((hit) => hit.entry.name)).toEqual(['incident']);
    expect(hits[0]?.snippet).toContain('[zanzibar]');
    const check = (): void => {
      raw.exec("INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)");
    };
    expect(check).not.toThrow();
    await pad.write('s1', 'incident', text(1500 * KIB, 'replacement'));
    expect((await pad.search('s1', 'zanzibar')).hits).toEqual([]);
    let replaced = await pad.search('s1', 'replacement');
    while (replaced.indexing) replaced = await pad.search('s1', 'replacement');
    expect(replaced.hits.map((hit) => hit.entry.version)).toEqual([2]);
    expect(check).not.toThrow();
    await pad.delete('s1', 'incident');
    expect(check).not.toThrow();
    // The index rows leave in the background.
    await vi.waitFor(() => expect(count('SELECT count(*) AS count FROM search_index_docsize')).toBe(0));
    expect(check).not.toThrow();
  });

  it(':memory: and a database you pass keep everything inline; a passed database reads side files by its name', async () => {
    const memory = createSqliteDriver({ path: ':memory:' });
    const inMemory = createScratchpad({ driver: memory });
    const content = text(2 * MIB, 'memory');
    await inMemory.write('s1', 'big', content);
    expect((await inMemory.read('s1', 'big')).content).toBe(content);
    await memory.close();

    await pad.write('s1', 'external', content);
    const own = openRawConnection(path);
    const passed = createSqliteDriver({ database: own });
    const viaConnection = createScratchpad({ driver: passed });
    expect((await viaConnection.read('s1', 'external')).content).toBe(content);
    await viaConnection.write('s1', 'inline', content);
    expect(layout('inline')).toMatchObject({ external: 0 });
    expect(files()).toHaveLength(1);
    await passed.close();
    own.close();
  });

  it('a staging area with side files must be committed by the driver that staged it', async () => {
    const sink = await driver.doStage('s1');
    const { Chunker } = await import('../../core/chunker.js');
    const chunker = new Chunker(256 * KIB);
    const chunks = [...chunker.push(Buffer.from(text(2 * MIB, 'elsewhere'))), ...chunker.flush()];
    for (const chunk of chunks) await sink.write(chunk);
    const other = createSqliteDriver({ path, now: () => clock });
    const record = testRecord({
      createdAt: clock,
      updatedAt: clock,
      contentId: sink.stagingId,
      chunkCount: chunks.length,
    });
    await expect(
      other.doCommit({ mode: 'replace', record, expectedVersion: null, stagingId: sink.stagingId }),
    ).rejects.toThrow(/staged by another driver/);
    await other.close();
    const result = await driver.doCommit({
      mode: 'replace',
      record,
      expectedVersion: null,
      stagingId: sink.stagingId,
    });
    expect(result.ok && result.record.chunkCount).toBe(chunks.length);
  });

  it('opens a version 1 store, adds the side-file schema and reads and searches the old content', async () => {
    const legacyPath = join(root, `legacy-${++counter}.db`);
    const legacy = openRawConnection(legacyPath);
    legacy.pragma('journal_mode = WAL');
    legacy.exec(MIGRATIONS[0] as string);
    legacy.pragma('user_version = 1');
    legacy.pragma(`application_id = ${0x53504144}`);
    legacy.exec(`
      INSERT INTO sessions VALUES ('s1', 1, 1);
      INSERT INTO contents (id, session, created_at, committed) VALUES (1, 's1', 1, 1);
      INSERT INTO entries VALUES ('s1', 'old', '0123456789abcdef', NULL, NULL, NULL, 'text', 'text/plain; charset=utf-8',
        11, 11, 1, '${createHash('sha256').update('legacy text').digest('hex')}', 1, 1, NULL, 0, 1, '{}', 1, 1);
      INSERT INTO chunks (id, content, seq, byte_start, char_start, line_start, bytes, chars, newlines)
        VALUES (1, 1, 0, 0, 0, 0, 11, 11, 0);
      INSERT INTO chunk_data VALUES (1, CAST('legacy text' AS BLOB));
    `);
    legacy.close();
    const upgraded = createSqliteDriver({ path: legacyPath, compression: 'none' });
    const upgradedPad = createScratchpad({ driver: upgraded });
    expect((await upgradedPad.read('s1', 'old')).content).toBe('legacy text');
    expect((await upgradedPad.search('s1', 'legacy')).hits.map((hit) => hit.snippet)).toEqual([
      '[legacy] text',
    ]);
    await upgradedPad.write('s1', 'new', text(2 * MIB, 'new'));
    expect(readdirSync(`${legacyPath}.blobs`)).toHaveLength(1);
    await upgraded.close();
    const check = openRawConnection(legacyPath);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });
});
