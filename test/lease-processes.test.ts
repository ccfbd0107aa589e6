import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchpad } from '../src/service/scratchpad.js';
import { createPostgresDriver } from '../src/stores/postgres/index.js';
import { createSqliteDriver } from '../src/stores/sqlite/index.js';
import { ensureBuilt } from './helpers/built-cli.js';

const worker = fileURLToPath(new URL('./fixtures/lease-worker.mjs', import.meta.url));
const postgresUrl = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const root = mkdtempSync(join(tmpdir(), 'scratchpad-leases-'));
const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;
let dist = '';

beforeAll(() => {
  dist = ensureBuilt();
}, 120_000);
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

/** Starts the workers together and resolves with their reports. */
async function runAgents(backend: string, target: string, agents: number, iterations: number) {
  const children = Array.from({ length: agents }, (_, index) => {
    const child = spawn(
      process.execPath,
      [worker, dist, backend, target, String(index), String(iterations)],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let output = '';
    let errors = '';
    const ready = new Promise<void>((resolve) => {
      child.stdout.on('data', (data: Buffer) => {
        output += data.toString();
        if (output.includes('ready')) resolve();
      });
    });
    child.stderr.on('data', (data: Buffer) => {
      errors += data.toString();
    });
    const done = new Promise<{ refused: number; blocked: number }>((resolve, reject) => {
      child.on('close', (code) =>
        code === 0
          ? resolve(JSON.parse(output.trim().split('\n').pop() ?? '{}'))
          : reject(new Error(`worker ${index} exited ${code}: ${errors}`)),
      );
    });
    return { child, ready, done };
  });
  await Promise.all(children.map((child) => child.ready));
  for (const { child } of children) child.stdin.write('go\n');
  return Promise.all(children.map((child) => child.done));
}

describe('one scratchpad shared by agents in several processes', () => {
  it('SQLite: leased read-modify-write without compare-and-set loses no update across 4 processes', async () => {
    const path = join(root, 'shared.db');
    const reports = await runAgents('sqlite', path, 4, 15);
    const driver = createSqliteDriver({ path });
    const pad = createScratchpad({ driver });
    expect((await pad.read('shared', 'counter')).content).toBe('60');
    await driver.close();
    expect(reports.reduce((sum, report) => sum + report.blocked, 0)).toBe(60);
  }, 120_000);

  it('PostgreSQL: the same across 4 processes, each with its own connections', async () => {
    const reports = await runAgents('postgres', `${postgresUrl} ${schema}`, 4, 15);
    const driver = await createPostgresDriver({ connectionString: postgresUrl, schema });
    const pad = createScratchpad({ driver });
    expect((await pad.read('shared', 'counter')).content).toBe('60');
    await driver.close();
    expect(reports.reduce((sum, report) => sum + report.blocked, 0)).toBe(60);
  }, 120_000);
});
