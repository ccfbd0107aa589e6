import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../../test/helpers/built-cli.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createPostgresDriver } from './postgres-driver.js';
// @ts-expect-error: a plain JavaScript fixture shared with the child process
import { contentOf } from './test-fixtures/crash-content.mjs';

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'test-fixtures');
const admin = new pg.Pool({ connectionString: url, max: 2 });
const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;
let dist = '';
const children = new Set<ChildProcess>();

beforeAll(() => {
  dist = ensureBuilt();
}, 120_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

describe('PostgreSQL writers killed with SIGKILL', () => {
  it('lose no acknowledged write, leave no torn entry, and leave nothing gc does not remove', async () => {
    const acknowledged: number[] = [];
    const inFlight: number[] = [];
    let next = 0;
    for (let round = 0; round < 6; round++) {
      // Even rounds are killed in the middle of a small write, odd ones while a large one is staged.
      const acks = await writeUntilKilled(dist, next, 3 + ((round * 7) % 11), round % 2 === 1);
      acknowledged.push(...acks);
      // The kill came during write `last + 1` (or its counter): it may have landed or not, never in part.
      const last = acks.at(-1) ?? next - 1;
      inFlight.push(last + 1);
      next = last + 2;
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(6 * 3);
    const staged = await admin.query(`SELECT count(*) AS n FROM "${schema}".staging`);
    expect(Number(staged.rows[0].n)).toBe(3);

    const later = Date.now() + 2 * 60 * 60 * 1000;
    const pad = createScratchpad({
      driver: await createPostgresDriver({ connectionString: url, schema, now: () => later }),
      now: () => later,
    });
    for (const index of acknowledged)
      expect((await pad.read('s1', `w-${index}`)).content).toBe(contentOf(index));
    for (const index of inFlight) {
      const found = await pad.find('s1', `w-${index}`);
      if (found) expect((await pad.read('s1', `w-${index}`)).content).toBe(contentOf(index));
    }
    expect(await pad.find('s1', 'big')).toBeUndefined();
    const counter = Number((await pad.read('s1', 'counter')).content);
    expect(counter).toBeGreaterThanOrEqual(acknowledged.at(-1) as number);
    expect([...acknowledged, ...inFlight]).toContain(counter);

    expect((await pad.gc()).staging).toBe(3);
    await pad.close();
    const leftovers = await admin.query(
      `SELECT (SELECT count(*) FROM "${schema}".staging) AS staging,
              (SELECT count(*) FROM "${schema}".retired) AS retired,
              (SELECT count(*) FROM "${schema}".chunks c
                WHERE NOT EXISTS (SELECT 1 FROM "${schema}".entries e WHERE e.content_id = c.content_id)) AS chunks,
              (SELECT count(*) FROM "${schema}".chunk_data d
                WHERE NOT EXISTS (SELECT 1 FROM "${schema}".chunks c WHERE c.data_id = d.id)) AS chunk_data`,
    );
    expect(leftovers.rows[0]).toEqual({ staging: '0', retired: '0', chunks: '0', chunk_data: '0' });
  }, 180_000);
});

/**
 * Runs crash-writer.mjs from write `first` on and kills it with SIGKILL once it acknowledged `count` writes (it
 * is then in the middle of the next) or, with `staging`, once it says a large entry's chunks are in a staging
 * row; resolves with the writes it acknowledged.
 */
function writeUntilKilled(dist: string, first: number, count: number, staging: boolean): Promise<number[]> {
  const child = spawn(process.execPath, [join(fixtures, 'crash-writer.mjs'), dist, url, schema], {
    env: { ...process.env, FIRST_WRITE: String(first), ...(staging ? { STREAM_AFTER: String(count) } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const acks: number[] = [];
  let pending = '';
  let errors = '';
  child.stdout.on('data', (data: Buffer) => {
    pending += data.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const ack = /^ack (\d+)$/.exec(line);
      if (ack) acks.push(Number(ack[1]));
      else if (line !== 'staging') errors += `unexpected output: ${line}\n`;
      if (staging ? line === 'staging' : acks.length >= count) child.kill('SIGKILL');
    }
  });
  child.stderr.on('data', (data: Buffer) => {
    errors += data.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      children.delete(child);
      if (signal === 'SIGKILL' && errors === '') resolve(acks);
      else reject(new Error(`crash-writer ended without its SIGKILL, or said something: ${errors}`));
    });
  });
}
