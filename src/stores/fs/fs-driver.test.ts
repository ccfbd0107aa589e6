import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import {
  chmod,
  link,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../../test/helpers/built-cli.js';
import type { Chunk } from '../../core/chunk.js';
import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { expectCode } from '../../testing/expect-code.js';
import { runStoreContract } from '../../testing/store-contract.js';
import { testRecord } from '../../testing/test-record.js';
import type { StoreDriver } from '../driver.js';
import { createFsDriver, type FsDriver } from './index.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '../../..');
const temporary: string[] = [];

async function newRoot(): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'scratchpad-fs-'));
  temporary.push(parent);
  return join(parent, 'store');
}

afterAll(async () => {
  await Promise.all(temporary.map((path) => rm(path, { recursive: true, force: true })));
});

const roots = new WeakMap<StoreDriver, string>();

runStoreContract({
  name: 'fs',
  createDriver: async () => {
    const root = await newRoot();
    const driver = createFsDriver({ root });
    roots.set(driver, root);
    return driver;
  },
  reopen: async (driver) => {
    const root = roots.get(driver) as string;
    await driver.close();
    const reopened = createFsDriver({ root });
    roots.set(reopened, root);
    return reopened;
  },
});

describe('fs driver', () => {
  let root: string;
  let driver: FsDriver;
  const clock = 1_700_000_000_000;
  const pad = (chunkSize = 64) => createScratchpad({ driver, chunkSize, now: () => clock });

  const open = async (): Promise<void> => {
    root = await newRoot();
    driver = createFsDriver({ root });
  };
  afterEach(async () => {
    await driver?.close();
  });

  it('keeps each entry as a plain file that cat shows byte for byte', async () => {
    await open();
    const scratchpad = pad();
    const text = 'plan: 1) read 🌍\r\n2) write\n'.repeat(20);
    await scratchpad.write('investigation', 'plan', text);
    expect(await readFile(join(root, 'investigation', 'plan'), 'utf8')).toBe(text);
    const bytes = Uint8Array.from({ length: 1000 }, (_, index) => (index * 7) % 256);
    await scratchpad.write('investigation', 'blob.bin', bytes);
    expect(new Uint8Array(await readFile(join(root, 'investigation', 'blob.bin')))).toEqual(bytes);
    await scratchpad.write('investigation', 'plan', 'replaced');
    expect(await readFile(join(root, 'investigation', 'plan'), 'utf8')).toBe('replaced');
    await scratchpad.write('investigation', 'plan', ' and appended', { mode: 'append' });
    expect(await readFile(join(root, 'investigation', 'plan'), 'utf8')).toBe('replaced and appended');
    await scratchpad.edit('investigation', 'plan', { oldText: 'replaced', newText: 'edited' });
    expect(await readFile(join(root, 'investigation', 'plan'), 'utf8')).toBe('edited and appended');
    expect((await readdir(join(root, 'investigation'))).sort()).toEqual(['.scratchpad', 'blob.bin', 'plan']);
    await scratchpad.delete('investigation', 'plan');
    expect(existsSync(join(root, 'investigation', 'plan'))).toBe(false);
  });

  it('appends in place: the content file keeps its inode and only grows', async () => {
    await open();
    const scratchpad = pad(64);
    await scratchpad.write('s', 'log', 'x'.repeat(500));
    const before = statSync(join(root, 's', 'log'));
    let expected = 'x'.repeat(500);
    for (let index = 0; index < 30; index++) {
      const piece = `line ${index} ✓\n`;
      expected += piece;
      await scratchpad.write('s', 'log', piece, { mode: 'append' });
    }
    const after = statSync(join(root, 's', 'log'));
    expect(after.ino).toBe(before.ino);
    expect(after.nlink).toBe(2);
    expect(await readFile(join(root, 's', 'log'), 'utf8')).toBe(expected);
    expect((await scratchpad.read('s', 'log', { type: 'lines', start: -2 })).content).toBe(
      'line 28 ✓\nline 29 ✓\n',
    );
    const content = await readdir(join(root, 's', '.scratchpad', 'content'));
    expect(content.filter((file) => file.endsWith('.idx')).length).toBe(1);
    expect(content.length).toBe(2);
  });

  it('an in-place append overwrites bytes a crashed append left past the committed end', async () => {
    await open();
    const scratchpad = pad(64);
    await scratchpad.write('s', 'log', 'first\n');
    await writeFile(join(root, 's', 'log'), 'TORN BYTES FROM A CRASH', { flag: 'a' });
    expect((await scratchpad.read('s', 'log')).content).toBe('first\n');
    await scratchpad.write('s', 'log', 'second\n', { mode: 'append' });
    expect(await readFile(join(root, 's', 'log'), 'utf8')).toBe('first\nsecond\n');
    expect((await scratchpad.get('s', 'log')).sha256).toBe(
      (await import('node:crypto')).createHash('sha256').update('first\nsecond\n').digest('hex'),
    );
  });

  it('appends copy-on-write when the staged bytes do not extend the file', async () => {
    await open();
    await pad(64).write('s', 'doc', 'a'.repeat(100));
    const current = (await driver.doGetEntry('s', 'doc')) as EntryRecord;
    expect(current.chunkCount).toBe(2);
    const before = statSync(join(root, 's', 'doc'));
    const sink = await driver.doStage('s');
    const data = Buffer.from('REPLACED TAIL');
    await sink.write({
      seq: 0,
      byteStart: 0,
      charStart: 0,
      lineStart: 0,
      bytes: data.length,
      chars: data.length,
      newlines: 0,
      data,
    });
    const bytes = 64 + data.length;
    const result = await driver.doCommit({
      mode: 'append',
      record: { ...current, bytes, chars: bytes, version: current.version + 1 },
      expectedVersion: current.version,
      stagingId: sink.stagingId,
      keepChunks: 1,
    });
    expect(result.ok).toBe(true);
    const expected = `${'a'.repeat(64)}REPLACED TAIL`;
    expect(await readFile(join(root, 's', 'doc'), 'utf8')).toBe(expected);
    expect(statSync(join(root, 's', 'doc')).ino).not.toBe(before.ino);
    const record = (await driver.doGetEntry('s', 'doc')) as EntryRecord;
    const chunks = await driver.doReadChunks(record, 0, record.chunkCount);
    expect(chunks.map((chunk) => [chunk.seq, chunk.byteStart, chunk.bytes])).toEqual([
      [0, 0, 64],
      [1, 64, data.length],
    ]);
    expect(Buffer.concat(chunks.map((chunk) => chunk.data)).toString()).toBe(expected);
    expect((await readdir(join(root, 's', '.scratchpad', 'content'))).length).toBe(2);
    expect(await readdir(join(root, '.scratchpad', 'staging'))).toEqual([]);
  });

  it('a version mismatch changes nothing and leaves the staging area to its writer', async () => {
    await open();
    await pad().write('s', 'doc', 'one');
    const current = (await driver.doGetEntry('s', 'doc')) as EntryRecord;
    const sink = await driver.doStage('s');
    const data = Buffer.from('two');
    await sink.write({
      seq: 0,
      byteStart: 0,
      charStart: 0,
      lineStart: 0,
      bytes: 3,
      chars: 3,
      newlines: 0,
      data,
    });
    const result = await driver.doCommit({
      mode: 'replace',
      record: { ...current, version: 2 },
      expectedVersion: 7,
      stagingId: sink.stagingId,
    });
    expect(result).toEqual({ ok: false, current });
    expect(await readFile(join(root, 's', 'doc'), 'utf8')).toBe('one');
    await sink.abort();
    expect(await readdir(join(root, '.scratchpad', 'staging'))).toEqual([]);
  });

  it('survives a reopen with the same files and finds entries by id in O(1) files', async () => {
    await open();
    const { entry } = await pad().write('s1', 'notes', 'remember this');
    const idFile = join(root, '.scratchpad', 'ids', entry.id);
    expect(await readFile(idFile, 'utf8')).toBe('s1/notes\n');
    await driver.close();
    driver = createFsDriver({ root });
    expect((await driver.doGetEntryById(entry.id))?.name).toBe('notes');
    expect(await driver.doGetEntryById('0123456789abcdef')).toBeUndefined();
    expect(await driver.doGetEntryById('../../etc/passwd')).toBeUndefined();
    await pad().delete('s1', 'notes');
    expect(existsSync(idFile)).toBe(false);
    expect(await driver.doGetEntryById(entry.id)).toBeUndefined();
  });

  it('an id file pointing at another entry does not resolve', async () => {
    await open();
    const { entry } = await pad().write('s1', 'a', 'one');
    await pad().write('s1', 'b', 'two');
    await writeFile(join(root, '.scratchpad', 'ids', entry.id), 's1/b\n');
    expect(await driver.doGetEntryById(entry.id)).toBeUndefined();
  });

  it('never lets a name, session id or record escape the root, even when passed to the driver directly', async () => {
    await open();
    const parent = dirname(root);
    await writeFile(join(parent, 'victim'), 'untouched');
    const bad = [
      '..',
      '../victim',
      '/etc/passwd',
      'a/b',
      'a\u0000b',
      '.scratchpad',
      '.',
      '',
      `${parent}/victim`,
      'x'.repeat(200),
    ];
    const record = (session: string, name: string): EntryRecord => testRecord({ session, name });
    for (const value of bad) {
      await expectCode(driver.doGetEntry(value, 'ok'), 'INVALID_NAME');
      await expectCode(driver.doGetEntry('ok', value), 'INVALID_NAME');
      await expectCode(driver.doStage(value), 'INVALID_NAME');
      await expectCode(driver.doDeleteSession(value), 'INVALID_NAME');
      await expectCode(driver.doDeleteEntry(record('ok', value)), 'INVALID_NAME');
      await expectCode(driver.doListEntries({ session: value }), 'INVALID_NAME');
      const sink = await driver.doStage('ok');
      await expectCode(
        driver.doCommit({
          mode: 'replace',
          record: record(value, 'ok'),
          expectedVersion: null,
          stagingId: sink.stagingId,
        }),
        'INVALID_NAME',
      );
      await expectCode(
        driver.doCommit({
          mode: 'replace',
          record: record('ok', value),
          expectedVersion: null,
          stagingId: sink.stagingId,
        }),
        'INVALID_NAME',
      );
      await sink.abort();
    }
    const evil = {
      ...record('ok', 'ok'),
      contentId: '../../../victim-aaaaaaaaaaaaaaaaaaaaaaaa',
      chunkCount: 1,
      bytes: 1,
    };
    await expectCode(driver.doReadChunks(evil, 0, 1), 'STORE_CORRUPT');
    await expectCode(driver.doLocateChunk(evil, 'byte', 0), 'STORE_CORRUPT');
    expect(await readFile(join(parent, 'victim'), 'utf8')).toBe('untouched');
    expect((await readdir(parent)).sort()).toEqual(['store', 'victim']);
    expect((await readdir(root)).sort()).toEqual(['.scratchpad']);
  });

  it('does not follow a symlinked session directory out of the root', async () => {
    await open();
    const outside = join(dirname(root), 'outside');
    await mkdir(outside);
    await symlink(outside, join(root, 'linked'));
    await expectCode(pad().write('linked', 'x', 'data'), 'STORE_UNAVAILABLE');
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses to overwrite a file it did not write, and keeps people’s files when deleting', async () => {
    await open();
    await mkdir(join(root, 's1'), { recursive: true });
    await writeFile(join(root, 's1', 'mine.txt'), 'written by a person');
    await expectCode(pad().write('s1', 'mine.txt', 'agent text'), 'ENTRY_EXISTS');
    expect(await readFile(join(root, 's1', 'mine.txt'), 'utf8')).toBe('written by a person');
    expect(await readdir(join(root, '.scratchpad', 'ids'))).toEqual([]);
    expect(await readdir(join(root, '.scratchpad', 'staging'))).toEqual([]);
    await pad().write('s1', 'agent', 'agent text');
    expect(await pad().deleteSession('s1')).toEqual({ entries: 1, bytes: 10 });
    expect(await readdir(join(root, 's1'))).toEqual(['mine.txt']);
  });

  it('reads only the chunks asked for, with positional reads bounded by the record', async () => {
    await open();
    const scratchpad = pad(1024);
    const content = Array.from({ length: 2000 }, (_, index) => `row ${index}\n`).join('');
    const { entry } = await scratchpad.write('s', 'big', content);
    const record = (await driver.doGetEntry('s', 'big')) as EntryRecord;
    expect(record.chunkCount).toBeGreaterThan(10);
    const seq = await driver.doLocateChunk(record, 'line', 1500);
    const [chunk] = (await driver.doReadChunks(record, seq, seq + 1)) as [Chunk];
    expect(chunk.lineStart).toBeLessThanOrEqual(1500);
    expect(chunk.lineStart + chunk.newlines).toBeGreaterThan(1500);
    expect(Buffer.from(chunk.data).toString()).toBe(
      Buffer.from(content)
        .subarray(chunk.byteStart, chunk.byteStart + chunk.bytes)
        .toString(),
    );
    expect(await driver.doReadChunks(record, record.chunkCount, record.chunkCount + 5)).toEqual([]);
    expect((await scratchpad.read('s', 'big', { type: 'lines', start: 1001, end: 1001 })).content).toBe(
      'row 1000\n',
    );
    expect(entry.lines).toBe(2000);
  });

  it('a staging area that is never committed is invisible and swept once old', async () => {
    await open();
    const sink = await driver.doStage('s1');
    await sink.write({
      seq: 0,
      byteStart: 0,
      charStart: 0,
      lineStart: 0,
      bytes: 5,
      chars: 5,
      newlines: 0,
      data: Buffer.from('hello'),
    });
    const stagingFile = join(root, '.scratchpad', 'staging', sink.stagingId);
    expect(existsSync(stagingFile)).toBe(true);
    expect(await driver.doListSessions()).toEqual([]);
    expect(await driver.doListEntries({})).toEqual([]);
    // A crashed writer: another driver instance (a new process) finds the file; it is swept only once old.
    const other = createFsDriver({ root });
    expect((await other.doSweepStaging(60_000)).staging).toBe(0);
    expect((await driver.doSweepStaging(0)).staging).toBe(0); // still being written by this driver
    const old = new Date(Date.now() - 120_000);
    await utimes(stagingFile, old, old);
    expect(await other.doSweepStaging(60_000)).toMatchObject({ staging: 1, files: { count: 1, bytes: 5 } });
    expect(existsSync(stagingFile)).toBe(false);
    await other.close();
  });

  it('repairs what a crash between renames leaves: orphan content, a stale NAME, bytes past the committed end', async () => {
    await open();
    const scratchpad = pad(64);
    await scratchpad.write('s', 'doc', 'committed content');
    const visible = join(root, 's', 'doc');
    const contentDirectory = join(root, 's', '.scratchpad', 'content');
    const [contentFile] = (await readdir(contentDirectory)).filter((file) => !file.endsWith('.idx')) as [
      string,
    ];
    // Crash 1: a replace renamed its content and re-linked NAME, then died before writing the record.
    const orphan = join(contentDirectory, 'a'.repeat(24));
    await writeFile(orphan, 'uncommitted');
    await rm(visible);
    await link(orphan, visible);
    // Crash 2: an in-place append wrote bytes past the committed end, then died.
    await writeFile(join(contentDirectory, contentFile), ' and torn bytes', { flag: 'a' });
    // Crash 3: a first write of a new entry linked its NAME, then died.
    const orphanNew = join(contentDirectory, 'b'.repeat(24));
    await writeFile(orphanNew, 'never committed');
    await link(orphanNew, join(root, 's', 'ghost'));
    await writeFile(join(root, 's', 'people-file'), 'keep me');
    expect((await scratchpad.read('s', 'doc')).content).toBe('committed content');
    expect(await readFile(visible, 'utf8')).toBe('uncommitted');

    // The ghost NAME and its content are one file (its last link gives back 15 bytes), the stale NAME's content 11.
    expect(await driver.doSweepStaging(3_600_000)).toMatchObject({
      staging: 0,
      files: { count: 3, bytes: 'uncommitted'.length + 'never committed'.length },
    });
    expect(await readFile(visible, 'utf8')).toBe('committed content');
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(join(root, 's', 'ghost'))).toBe(false);
    expect(await readFile(join(root, 's', 'people-file'), 'utf8')).toBe('keep me');
    expect((await readdir(contentDirectory)).length).toBe(2);
    await scratchpad.write('s', 'doc', '!', { mode: 'append' });
    expect(await readFile(visible, 'utf8')).toBe('committed content!');
  });

  it('a reader holding an old record of a replaced entry gets VERSION_CONFLICT, not other bytes', async () => {
    await open();
    await pad().write(
      's',
      'doc',
      'first version that is long enough for two chunks of sixty-four bytes each..',
    );
    const old = (await driver.doGetEntry('s', 'doc')) as EntryRecord;
    await pad().write('s', 'doc', 'second');
    const fresh = createFsDriver({ root }); // no cached index
    await expectCode(fresh.doReadChunks(old, 0, 1), 'VERSION_CONFLICT');
    await fresh.close();
  });

  it('reports damaged metadata as STORE_CORRUPT with the path', async () => {
    await open();
    await pad().write('s', 'doc', 'content');
    const recordFile = join(root, 's', '.scratchpad', 'entries', 'doc.json');
    await writeFile(recordFile, '{"id": "trunc');
    const error = await expectCode(driver.doGetEntry('s', 'doc'), 'STORE_CORRUPT');
    expect(error.message).toContain(recordFile);
    await writeFile(recordFile, JSON.stringify({ id: 'x', name: 'doc' }));
    await expectCode(driver.doListEntries({ session: 's' }), 'STORE_CORRUPT');
  });

  it('reports a damaged chunk index and a truncated content file as STORE_CORRUPT', async () => {
    await open();
    await pad().write('s', 'doc', 'y'.repeat(300));
    const record = (await driver.doGetEntry('s', 'doc')) as EntryRecord;
    const contentDirectory = join(root, 's', '.scratchpad', 'content');
    const files = await readdir(contentDirectory);
    const indexFile = files.find((file) => file.endsWith('.idx')) as string;
    const contentFile = files.find((file) => !file.endsWith('.idx')) as string;
    await truncate(join(contentDirectory, contentFile), 100);
    await expectCode(driver.doReadChunks(record, 0, record.chunkCount), 'STORE_CORRUPT');
    await writeFile(join(contentDirectory, indexFile), 'garbage');
    const fresh = createFsDriver({ root });
    await expectCode(fresh.doLocateChunk(record, 'byte', 10), 'STORE_CORRUPT');
    await fresh.close();
  });

  it('fails with STORE_UNAVAILABLE, the path and a hint when the root is unusable', async () => {
    root = await newRoot();
    await writeFile(root, 'a file, not a directory');
    for (const bad of [root, join(root, 'below')]) {
      try {
        createFsDriver({ root: bad });
        throw new Error('expected STORE_UNAVAILABLE');
      } catch (error) {
        expect(ScratchpadError.hasCode(error, 'STORE_UNAVAILABLE')).toBe(true);
        expect((error as ScratchpadError).message).toContain(resolve(bad));
        expect((error as ScratchpadError).hint).toBeTruthy();
      }
    }
    driver = undefined as unknown as FsDriver;
  });

  it.skipIf(process.getuid?.() === 0)(
    'fails with STORE_UNAVAILABLE when the root is not writable',
    async () => {
      root = await newRoot();
      await mkdir(root);
      await chmod(root, 0o500);
      expect(() => createFsDriver({ root })).toThrowError(/not writable/);
      await chmod(root, 0o700);
      driver = undefined as unknown as FsDriver;
    },
  );

  it('refuses a store written in another layout version', async () => {
    root = await newRoot();
    await mkdir(join(root, '.scratchpad'), { recursive: true });
    await writeFile(
      join(root, '.scratchpad', 'layout.json'),
      '{"format":"agent-scratchpad-fs","version":99}',
    );
    expect(() => createFsDriver({ root })).toThrowError(/version 99/);
    driver = undefined as unknown as FsDriver;
  });

  it('takes over a lock left by a dead process, and waits for a live one', async () => {
    await open();
    await pad().write('s', 'doc', 'one');
    const lockFile = join(root, 's', '.scratchpad', 'lock');
    const dead = await run(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    await writeFile(lockFile, `${dead.stdout}\n${(await import('node:os')).hostname()}\nabc\n`);
    await pad().write('s', 'doc', 'two');
    expect(existsSync(lockFile)).toBe(false);
    // A live holder (this process's parent shell is alive; use our own pid through another driver instance).
    await writeFile(lockFile, `${process.ppid}\n${(await import('node:os')).hostname()}\nlive\n`);
    const impatient = createFsDriver({ root, lock: { timeoutMs: 200, staleMs: 60_000 } });
    const error = await expectCode(
      createScratchpad({ driver: impatient, now: () => clock }).write('s', 'doc', 'three'),
      'STORE_UNAVAILABLE',
    );
    expect(error.message).toContain(`process ${process.ppid}`);
    expect(error.hint).toContain(lockFile);
    // The same lock, once older than staleMs, is taken over.
    const old = new Date(Date.now() - 120_000);
    await utimes(lockFile, old, old);
    await createScratchpad({ driver: impatient, now: () => clock }).write('s', 'doc', 'three');
    expect((await pad().read('s', 'doc')).content).toBe('three');
    await impatient.close();
  });

  it('deleting a session keeps ids and locks consistent for the next writer', async () => {
    await open();
    const { entry } = await pad().write('s', 'a', 'x');
    await pad().deleteSession('s');
    expect(await driver.doGetEntryById(entry.id)).toBeUndefined();
    expect(existsSync(join(root, 's'))).toBe(false);
    expect(await readdir(join(root, '.scratchpad', 'trash'))).toEqual([]);
    await pad().write('s', 'a', 'again');
    expect((await pad().read('s', 'a')).content).toBe('again');
    expect(await driver.doDeleteSession('never')).toBeUndefined();
    expect(existsSync(join(root, 'never'))).toBe(false);
  });
});

describe('fs driver across processes', () => {
  const worker = join(here, 'concurrency-worker.fixture.mjs');
  const built = join(projectRoot, 'dist', 'stores', 'fs', 'index.js');

  beforeAll(() => {
    ensureBuilt();
    expect(existsSync(built)).toBe(true);
  }, 120_000);

  it('a process killed while staging leaves nothing visible, and the sweep removes its file', async () => {
    const root = await newRoot();
    const script = `
      import { createFsDriver } from ${JSON.stringify(built)};
      const driver = createFsDriver({ root: ${JSON.stringify(root)} });
      const sink = await driver.doStage('s1');
      const data = Buffer.from('half-written content');
      await sink.write({ seq: 0, byteStart: 0, charStart: 0, lineStart: 0, bytes: data.length, chars: data.length, newlines: 0, data });
      process.kill(process.pid, 'SIGKILL');
    `;
    const killed = await run(process.execPath, ['--input-type=module', '-e', script]).catch(
      (error: { signal?: string }) => error,
    );
    expect((killed as { signal?: string }).signal).toBe('SIGKILL');
    const [leftover] = await readdir(join(root, '.scratchpad', 'staging'));
    expect(leftover).toMatch(/^[0-9a-f]{24}$/);
    const driver = createFsDriver({ root });
    try {
      expect(await driver.doListSessions()).toEqual([]);
      expect(await driver.doListEntries({})).toEqual([]);
      expect((await driver.doSweepStaging(3_600_000)).staging).toBe(0);
      const old = new Date(Date.now() - 7_200_000);
      await utimes(join(root, '.scratchpad', 'staging', leftover as string), old, old);
      expect(await driver.doSweepStaging(3_600_000)).toMatchObject({
        staging: 1,
        files: { count: 1, bytes: 'half-written content'.length },
      });
      expect(await readdir(join(root, '.scratchpad', 'staging'))).toEqual([]);
    } finally {
      await driver.close();
    }
  });

  it('serializes compare-and-set increments and appends of several processes: no lost update', async () => {
    const root = await newRoot();
    const processes = 4;
    const rounds = 25;
    const results = await Promise.all(
      Array.from({ length: processes }, (_, worker_) =>
        run(process.execPath, [worker, root, String(worker_), String(rounds)], {
          cwd: projectRoot,
          timeout: 120_000,
        }),
      ),
    );
    const reports = results.map(
      (result) => JSON.parse(result.stdout) as { increments: number; appends: number },
    );
    expect(reports.map((report) => [report.increments, report.appends])).toEqual(
      Array.from({ length: processes }, () => [rounds, rounds]),
    );
    const driver = createFsDriver({ root });
    try {
      const scratchpad = createScratchpad({ driver, chunkSize: 64 });
      expect((await scratchpad.read('shared', 'counter')).content).toBe(String(processes * rounds));
      const log = (await scratchpad.read('shared', 'log')).content;
      expect(await readFile(join(root, 'shared', 'log'), 'utf8')).toBe(log);
      const lines = log.split('\n').filter((line) => line.length > 0);
      expect(lines.length).toBe(processes * rounds);
      for (let index = 0; index < processes; index++) {
        const mine = lines
          .filter((line) => line.startsWith(`worker ${index} `))
          .map((line) => Number(line.split(' ')[3]));
        expect(mine).toEqual(Array.from({ length: rounds }, (_, round) => round));
      }
      const entry = await scratchpad.get('shared', 'log');
      expect(entry.version).toBe(processes * rounds);
      expect(entry.lines).toBe(processes * rounds);
      expect((await scratchpad.list('shared')).entries).toHaveLength(2 + processes);
      expect(existsSync(join(root, 'shared', '.scratchpad', 'lock'))).toBe(false);
    } finally {
      await driver.close();
    }
  }, 180_000);
});
