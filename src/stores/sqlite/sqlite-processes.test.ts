import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBuilt } from '../../../test/helpers/built-cli.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { BlobDirectory } from './blob-directory.js';
import { registerChunkTextFunction } from './chunk-text-function.js';
import { createSqliteDriver } from './index.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';

// Child processes run the built package (built here when it is missing or stale).
const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, 'test-fixtures');
let dist = '';

beforeAll(() => {
  dist = ensureBuilt();
}, 120_000);

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-processes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface NodeChild {
  /** Resolves once the child printed `ready`. */
  ready: Promise<void>;
  /** Resolves with the child's last output line when it exits with 0. */
  done: Promise<string>;
  send(text: string): void;
}

function startNode(
  script: string,
  parameters: string[],
  options: { uid?: number; gid?: number } = {},
): NodeChild {
  const child = spawn(process.execPath, [join(fixtures, script), ...parameters], {
    ...options,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (data: Buffer) => {
    output += data.toString();
    if (output.includes('ready')) markReady();
  });
  child.stderr.on('data', (data: Buffer) => {
    errors += data.toString();
  });
  const done = new Promise<string>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.destroy();
      if (code === 0) resolve(output.trim().split('\n').pop() ?? '');
      else reject(new Error(`${script} exited ${code}: ${errors}`));
    });
  });
  return { ready, done, send: (text) => child.stdin.write(text) };
}

function runNode(
  script: string,
  parameters: string[],
  options: { uid?: number; gid?: number } = {},
): Promise<string> {
  return startNode(script, parameters, options).done;
}

/** Starts `workers` concurrent-writer children together; resolves with the conflicts each retried. */
async function runWriters(path: string, workers: number, iterations: number, extra: string[] = []) {
  const children = Array.from({ length: workers }, (_, worker) =>
    startNode('concurrent-writer.mjs', [dist, path, String(worker), String(iterations), ...extra]),
  );
  await Promise.race([
    Promise.all(children.map((child) => child.ready)),
    Promise.all(children.map((child) => child.done)),
  ]);
  for (const child of children) child.send('go\n');
  const reports = await Promise.all(children.map((child) => child.done));
  return reports.map((line) => (JSON.parse(line) as { conflicts: number }).conflicts);
}

describe('SQLite store shared by processes', () => {
  it('processes racing to create the file, then incrementing and appending concurrently, lose nothing', async () => {
    const path = join(root, 'shared', 'store.db');

    const workers = 4;
    const iterations = 25;
    const conflicts = await runWriters(path, workers, iterations);

    const pad = createScratchpad({ driver: createSqliteDriver({ path }), chunkSize: 64 });
    const counter = await pad.read('shared', 'counter');
    expect(counter.content).toBe(String(workers * iterations));
    expect(counter.entry.version).toBe(1 + workers * iterations);

    const log = await pad.read('shared', 'log');
    const lines = log.content.split('\n').slice(0, -1);
    expect(lines).toHaveLength(workers * iterations);
    expect(new Set(lines).size).toBe(workers * iterations);
    for (let worker = 0; worker < workers; worker++) {
      const own = lines
        .filter((line) => line.startsWith(`w${worker}-`))
        .map((line) => Number(line.split('-')[1]));
      expect(own).toEqual(Array.from({ length: iterations }, (_, index) => index));
    }
    expect(log.entry).toMatchObject({
      version: workers * iterations,
      lines: workers * iterations,
      bytes: Buffer.byteLength(log.content),
    });
    expect(log.entry.sha256).toBe(createHash('sha256').update(log.content).digest('hex'));
    expect((await pad.read('shared', 'log', { type: 'lines', start: 37, end: 37 })).content).toBe(
      `${lines[36]}\n`,
    );
    await pad.close();

    const raw = openRawConnection(path, { readOnly: true });
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(raw.pragma('foreign_key_check')).toEqual([]);
    expect(raw.prepare('SELECT count(*) AS count FROM contents WHERE committed = 0').get()).toEqual({
      count: 0,
    });
    expect(
      raw.prepare('SELECT count(*) AS count FROM chunk_data WHERE id NOT IN (SELECT id FROM chunks)').get(),
    ).toEqual({ count: 0 });
    raw.close();
    // Contention is the point of the test: make sure it happened (four processes, 200 writes).
    expect(conflicts.reduce((sum, value) => sum + value, 0)).toBeGreaterThan(0);
  }, 120_000);

  it('large contents in side files, appended and replaced by racing processes, stay exact with no stray file', async () => {
    const path = join(root, 'side-files', 'store.db');
    const workers = 4;
    const iterations = 12;
    // 128 inline bytes: each ~370-byte block is two chunks in the database and four in a side file.
    const conflicts = await runWriters(path, workers, iterations, ['128']);

    const pad = createScratchpad({ driver: createSqliteDriver({ path }), chunkSize: 64 });
    const big = await pad.read('shared', 'big');
    const blocks = big.content.split('\n').slice(0, -1);
    expect(blocks).toHaveLength(workers * iterations);
    for (let worker = 0; worker < workers; worker++) {
      const own = blocks.filter((block) => block.startsWith(`b${worker}-`));
      expect(own).toEqual(
        Array.from({ length: iterations }, (_, index) => `b${worker}-${index}:${'é—x'.repeat(60)}`),
      );
      const last = `b${worker}-${iterations - 1}:${'é—x'.repeat(60)}\n`;
      expect((await pad.read('shared', `big-w${worker}`)).content).toBe(last.repeat(2));
    }
    expect(big.entry.sha256).toBe(createHash('sha256').update(big.content).digest('hex'));
    expect(big.entry.bytes).toBe(Buffer.byteLength(big.content));
    await pad.close();

    const raw = openRawConnection(path, { readOnly: true });
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(raw.pragma('foreign_key_check')).toEqual([]);
    const count = (sql: string): number => (raw.prepare(sql).get() as { count: number }).count;
    expect(count('SELECT count(*) AS count FROM contents WHERE committed = 0')).toBe(0);
    const liveExternal = count(
      'SELECT count(*) AS count FROM chunks JOIN entries ON entries.content = chunks.content WHERE chunks.file IS NOT NULL',
    );
    expect(liveExternal).toBeGreaterThan(workers * iterations * 3);
    // Every registered file exists, every file on disk is registered (aborted stagings left nothing behind),
    // and every registered file is still needed by some content.
    const registered = (raw.prepare('SELECT name FROM blob_files').all() as Array<{ name: string }>)
      .map((row) => row.name)
      .sort();
    expect(readdirSync(`${path}.blobs`).sort()).toEqual(registered);
    expect(
      count(
        `SELECT count(*) AS count FROM blob_files WHERE NOT EXISTS (SELECT 1 FROM chunks WHERE chunks.file = blob_files.id)
           AND NOT EXISTS (SELECT 1 FROM contents WHERE contents.id = blob_files.owner)`,
      ),
    ).toBe(0);
    raw.close();
    expect(conflicts).toHaveLength(workers);
  }, 120_000);

  it('a writer killed mid-write leaves a staging area and a side file, which gc sweeps', async () => {
    const path = join(root, 'crash', 'store.db');
    await expect(runNode('crash-writer.mjs', [dist, path])).rejects.toThrow(/exited null/);
    const leftovers = readdirSync(`${path}.blobs`);
    expect(leftovers).toHaveLength(1);
    expect(statSync(join(`${path}.blobs`, leftovers[0] as string)).size).toBeGreaterThan(1024 * 1024);

    const later = Date.now() + 2 * 60 * 60 * 1000;
    const pad = createScratchpad({
      driver: createSqliteDriver({ path, now: () => later }),
      now: () => later,
    });
    expect((await pad.list('s1')).entries).toEqual([]);
    expect((await pad.gc()).staging).toBe(1);
    expect(readdirSync(`${path}.blobs`)).toEqual([]);
    await pad.close();
    const raw = openRawConnection(path, { readOnly: true });
    for (const table of ['contents', 'chunks', 'chunk_data', 'blob_files']) {
      expect(raw.prepare(`SELECT count(*) AS count FROM ${table}`).get()).toEqual({ count: 0 });
    }
    raw.close();
  }, 60_000);

  it('indexing killed halfway (on the index thread) leaves a consistent index, which the next driver completes', async () => {
    const path = join(root, 'crash-index', 'store.db');
    await expect(runNode('crash-indexer.mjs', [dist, path])).rejects.toThrow(/exited null/);
    const check = (): void => {
      const database = openRawConnection(path);
      registerChunkTextFunction(database, new BlobDirectory(path));
      try {
        database.exec("INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)");
      } finally {
        database.close();
      }
    };
    const raw = openRawConnection(path, { readOnly: true });
    const count = (sql: string): number => (raw.prepare(sql).get() as { count: number }).count;
    const indexedChunks = (): number => count('SELECT count(*) AS count FROM chunks WHERE indexed = 1');
    const indexRows = (): number => count('SELECT count(*) AS count FROM search_index_docsize');
    // Killed halfway: each chunk's index rows and its flag changed in one transaction.
    expect(indexedChunks()).toBeGreaterThan(0);
    expect(indexedChunks()).toBeLessThan(count('SELECT count(*) AS count FROM chunks'));
    expect(indexRows()).toBe(indexedChunks());
    expect(check).not.toThrow();

    const pad = createScratchpad({ driver: createSqliteDriver({ path }), chunkSize: 64 * 1024 });
    let result = await pad.search('s1', 'quokka0');
    while (result.indexing) result = await pad.search('s1', 'quokka0');
    expect(result.hits.map((hit) => hit.entry.name).sort()).toEqual(['big', 'small']);
    expect(indexedChunks()).toBe(count('SELECT count(*) AS count FROM chunks'));
    expect(indexRows()).toBe(indexedChunks());
    await pad.close();
    raw.close();
    expect(check).not.toThrow();
  }, 120_000);

  it('un-indexing killed halfway resumes in the next driver; searches never show the deleted entry', async () => {
    const path = join(root, 'crash-unindex', 'store.db');
    await expect(runNode('crash-unindexer.mjs', [dist, path])).rejects.toThrow(/exited null/);
    const raw = openRawConnection(path, { readOnly: true });
    const count = (sql: string): number => (raw.prepare(sql).get() as { count: number }).count;
    const queuedRows = (): number =>
      count(
        `SELECT count(*) AS count FROM search_unindex JOIN chunks ON chunks.content = search_unindex.content
         WHERE chunks.indexed = 1`,
      );
    const indexRows = (): number => count('SELECT count(*) AS count FROM search_index_docsize');
    // Killed halfway: some of the deleted entry's rows are gone, some are still queued, and its content is held.
    expect(queuedRows()).toBeGreaterThan(0);
    expect(indexRows()).toBe(queuedRows() + 1);

    const later = Date.now() + 2 * 60 * 60 * 1000;
    const pad = createScratchpad({
      driver: createSqliteDriver({ path, now: () => later }),
      now: () => later,
      chunkSize: 64 * 1024,
    });
    expect((await pad.search('s1', 'quokka0')).hits.map((hit) => hit.entry.name)).toEqual(['small']);
    // Opening the store resumed the queue: the rows leave without another delete or search.
    await vi.waitFor(() => expect(count('SELECT count(*) AS count FROM search_unindex')).toBe(0), {
      timeout: 30_000,
    });
    expect(indexRows()).toBe(1);
    // Once un-indexed, the content is no longer held: gc purges it.
    expect((await pad.gc()).released.contents).toBe(1);
    expect(count('SELECT count(*) AS count FROM chunks')).toBe(1);
    await pad.close();
    raw.close();
    const check = openRawConnection(path);
    registerChunkTextFunction(check, new BlobDirectory(path));
    expect(() =>
      check.exec("INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)"),
    ).not.toThrow();
    check.close();
  }, 120_000);

  it('a file this user may not open is STORE_UNAVAILABLE (run as another user)', async () => {
    if (process.getuid?.() !== 0) return; // without root we cannot switch users; sqlite-errors.test.ts covers chmod 000
    chmodSync(root, 0o755);
    const directory = mkdtempSync(join(root, 'permissions-'));
    chmodSync(directory, 0o755);
    const privatePath = join(directory, 'private.db');
    await createSqliteDriver({ path: privatePath }).close();
    chmodSync(privatePath, 0o600);
    const nobody = { uid: 65534, gid: 65534 };
    const denied = JSON.parse(await runNode('open-store.mjs', [dist, privatePath], nobody)) as Record<
      string,
      string
    >;
    expect(denied).toMatchObject({ ok: false, code: 'STORE_UNAVAILABLE' });
    expect(denied.message).toContain(privatePath);
    expect(denied.hint).toContain('read and write');

    // Readable but not writable (and no way to create the -wal file): still unavailable, never a crash.
    const readOnlyPath = join(directory, 'read-only.db');
    await createSqliteDriver({ path: readOnlyPath }).close();
    // On Node 20 (@photostructure/sqlite) a closed connection lets go of its -wal and -shm files only once its
    // statements are garbage-collected (its close checkpointed the WAL into the file): remove them, as SQLite does
    // at the last close elsewhere, so the other user would have to create them.
    rmSync(`${readOnlyPath}-wal`, { force: true });
    rmSync(`${readOnlyPath}-shm`, { force: true });
    chmodSync(readOnlyPath, 0o644);
    const readOnly = JSON.parse(await runNode('open-store.mjs', [dist, readOnlyPath], nobody)) as Record<
      string,
      string
    >;
    expect(readOnly).toMatchObject({ ok: false, code: 'STORE_UNAVAILABLE' });
    expect(readOnly.message).toContain(readOnlyPath);
  });
});
