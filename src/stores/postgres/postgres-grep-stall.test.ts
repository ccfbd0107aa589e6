import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { grepLogPieces } from '../../../test/support/stall-logs.js';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import type { GrepResult } from '../../service/types.js';
import { createSqliteDriver } from '../sqlite/index.js';
import { createPostgresDriver } from './postgres-driver.js';

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;

/** What a grep found, without the entry's record (ids and times differ between the two stores). */
function answer({ entry: _entry, ...found }: GrepResult): Omit<GrepResult, 'entry'> {
  return found;
}

let directory: string;
let postgres: Scratchpad;
let sqlite: Scratchpad;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'postgres-grep-stall-'));
  postgres = createScratchpad({ driver: await createPostgresDriver({ connectionString: url, schema }) });
  sqlite = createScratchpad({ driver: createSqliteDriver({ path: join(directory, 'store.db') }) });
  await postgres.write('s', 'log', grepLogPieces(32));
  await sqlite.write('s', 'log', grepLogPieces(32));
}, 120_000);

afterAll(async () => {
  await postgres?.close();
  await sqlite?.close();
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
  await rm(directory, { recursive: true, force: true });
});

describe('grep on PostgreSQL', () => {
  it('greps 27 MiB of log without stalling the event loop and answers as the SQLite store does', async () => {
    const cases = [
      { pattern: 'ERROR', ignoreCase: false },
      { pattern: 'timeout|declined', ignoreCase: false },
      { pattern: 'error', ignoreCase: true },
      { pattern: 'req=0+4[0-9]{4}7 ', ignoreCase: false },
    ];
    for (const { pattern, ignoreCase } of cases) {
      const options = { pattern, ignoreCase, maxMatches: 5, context: 1 };
      const probe = await probeEventLoop(() => postgres.grep('s', 'log', options));
      const expected = await sqlite.grep('s', 'log', options);
      expect(probe.value.total, pattern).toBeGreaterThan(0);
      expect(answer(probe.value), pattern).toEqual(answer(expected));
      console.log('WORST', pattern, probe.worstDelayMs, probe.worstBusyMs, probe.durationMs);
      expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
    }
  }, 120_000);

  it('a grep past its time bound fails with REGEX_TIMEOUT, and the next grep works', async () => {
    await expect(postgres.grep('s', 'log', { pattern: '(.*é){9}.*…$', timeoutMs: 1 })).rejects.toMatchObject({
      code: 'REGEX_TIMEOUT',
    });
    const options = { pattern: 'declined', maxMatches: 2 };
    expect(answer(await postgres.grep('s', 'log', options))).toEqual(
      answer(await sqlite.grep('s', 'log', options)),
    );
  }, 60_000);
});
