import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { runStoreContract } from '../../testing/store-contract.js';
import type { StoreDriver } from '../driver.js';
import { createSqliteDriver, type SqliteDriver } from './index.js';
import { SCHEMA_VERSION } from './sqlite-schema.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-sqlite-'));
let counter = 0;
const freshPath = (): string => join(root, `store-${++counter}`, 'nested', 'scratchpad.db');
afterAll(() => rmSync(root, { recursive: true, force: true }));

runStoreContract({
  name: 'sqlite',
  createDriver: ({ now }) => createSqliteDriver({ path: freshPath(), now }),
  reopen: async (driver: StoreDriver) => {
    const path = (driver as SqliteDriver).path;
    await driver.close();
    return createSqliteDriver({ path });
  },
});

runStoreContract({
  name: 'sqlite :memory:',
  createDriver: ({ now }) => createSqliteDriver({ path: ':memory:', now }),
});

// The runs above store chunks as written (the default). This one compresses (brotli): the contract's 64-byte
// chunks of repeated text mostly shrink, its random ones do not, so entries mix both.
runStoreContract({
  name: 'sqlite, brotli',
  createDriver: ({ now }) => createSqliteDriver({ path: freshPath(), compression: 'brotli', now }),
  reopen: async (driver: StoreDriver) => {
    const path = (driver as SqliteDriver).path;
    await driver.close();
    return createSqliteDriver({ path });
  },
});

// The contract writes 64-byte chunks: with no inline budget every chunk goes to side files, and with 150 bytes
// contents of more than three chunks start inline and continue in a side file (appends add more files).
for (const inlineBytes of [0, 150]) {
  runStoreContract({
    name: `sqlite, side files after ${inlineBytes} bytes`,
    createDriver: ({ now }) => createSqliteDriver({ path: freshPath(), inlineBytes, now }),
    reopen: async (driver: StoreDriver) => {
      const path = (driver as SqliteDriver).path;
      await driver.close();
      return createSqliteDriver({ path, inlineBytes });
    },
  });
}

describe('SqliteDriver', () => {
  it('creates parent directories and a WAL database with its pragmas', async () => {
    const path = freshPath();
    const driver = createSqliteDriver({ path });
    expect(driver.backend).toBe('sqlite');
    expect(existsSync(path)).toBe(true);
    await driver.close();
    const database = openRawConnection(path);
    const pragma = (name: string): unknown => database.pragma(name, { simple: true });
    expect(pragma('journal_mode')).toBe('wal');
    expect(pragma('page_size')).toBe(4096);
    expect(pragma('user_version')).toBe(SCHEMA_VERSION);
    expect(pragma('application_id')).toBe(0x53504144);
    database.close();
  });

  it('uses a connection the caller passes, sets its pragmas, and leaves it open on close', async () => {
    const path = freshPath();
    createSqliteDriver({ path }).close();
    const database = openRawConnection(path);
    const driver = createSqliteDriver({ database, busyTimeoutMs: 1234 });
    expect(driver.path).toBe(path);
    const pad = createScratchpad({ driver });
    await pad.write('s1', 'note', 'from my own connection');
    // The driver waits for the write lock itself, without blocking the event loop (decision 012).
    expect(database.pragma('busy_timeout', { simple: true })).toBe(0);
    expect(database.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(database.pragma('synchronous', { simple: true })).toBe(1);
    await driver.close();
    expect(database.open).toBe(true);
    expect(database.prepare('SELECT count(*) AS count FROM entries').get()).toEqual({ count: 1 });
    database.close();
  });

  it('wants exactly one of path and database', () => {
    expect(() => createSqliteDriver({})).toThrow(ScratchpadError);
    expect(() => createSqliteDriver({ path: ':memory:', database: openRawConnection(':memory:') })).toThrow(
      /either a path or a database/,
    );
  });

  it('a closed driver says so', async () => {
    const driver = createSqliteDriver({ path: freshPath() });
    await driver.close();
    await driver.close();
    const error = await driver.doStats().catch((caught: unknown) => caught);
    expect(ScratchpadError.hasCode(error, 'STORE_UNAVAILABLE')).toBe(true);
    expect((error as ScratchpadError).message).toContain('closed');
  });

  it('two drivers on one file see each other’s commits', async () => {
    const path = freshPath();
    const first = createScratchpad({ driver: createSqliteDriver({ path }), chunkSize: 64 });
    const second = createScratchpad({ driver: createSqliteDriver({ path }), chunkSize: 64 });
    await first.write('s1', 'shared', `${'x'.repeat(500)}\n`);
    expect((await second.read('s1', 'shared', { type: 'range', start: 490 })).content).toBe(
      `${'x'.repeat(10)}\n`,
    );
    await second.write('s1', 'shared', 'y\n', { mode: 'append' });
    expect((await first.read('s1', 'shared', { type: 'lines', start: -1 })).content).toBe('y\n');
    await expect(first.write('s1', 'shared', 'z', { ifVersion: 1 })).rejects.toMatchObject({
      code: 'VERSION_CONFLICT',
    });
    await first.close();
    await second.close();
  });

  it('a 2,000-character read of a many-chunk entry touches only the chunks it needs', async () => {
    const path = freshPath();
    mkdirSync(dirname(path), { recursive: true });
    const database = openRawConnection(path);
    const driver = createSqliteDriver({ database });
    const pad = createScratchpad({ driver, chunkSize: 1024 });
    const lines = Array.from({ length: 20_000 }, (_, index) => `line ${index} — ünïcode ✓`);
    await pad.write('s1', 'big', lines.join('\n'));
    const reads: Array<[number, number]> = [];
    const original = driver.doReadChunks.bind(driver);
    driver.doReadChunks = async (record, start, end) => {
      reads.push([start, end]);
      return original(record, start, end);
    };
    const read = await pad.read('s1', 'big', { type: 'range', start: 300_000, end: 302_000 });
    expect(read.content).toBe([...lines.join('\n')].slice(300_000, 302_000).join(''));
    const chunksRead = reads.reduce((sum, [start, end]) => sum + (end - start), 0);
    expect(chunksRead).toBeLessThanOrEqual(4);
    await driver.close();
    database.close();
  });
});
