import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { createPgPool } from './load-pg.js';
import { createPostgresDriver } from './postgres-driver.js';
import { describeTarget, toStoreError } from './postgres-errors.js';

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const server = new URL(url);
const admin = new pg.Pool({ connectionString: url, max: 2 });

afterAll(async () => {
  await admin.end();
});

async function rejection(promise: Promise<unknown>): Promise<ScratchpadError> {
  try {
    await promise;
  } catch (error) {
    if (ScratchpadError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ScratchpadError, but it succeeded');
}

function withPath(path: string, user = server.username): string {
  const other = new URL(url);
  other.pathname = path;
  other.username = user;
  return other.toString();
}

describe('postgres errors', () => {
  it('a missing database is STORE_UNAVAILABLE naming it', async () => {
    const database = `missing_${randomBytes(4).toString('hex')}`;
    const error = await rejection(createPostgresDriver({ connectionString: withPath(`/${database}`) }));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain(`no database "${database}"`);
    expect(error.message).toContain(`${server.hostname}:${server.port || 5432}`);
    expect(error.hint).toContain(`createdb ${database}`);
    expect(error.hint).toContain('SCRATCHPAD_STORE');
  });

  it('a user the server refuses is STORE_UNAVAILABLE naming the user, never the password', async () => {
    const user = `nobody_${randomBytes(4).toString('hex')}`;
    const connectionString = withPath(server.pathname, user).replace(`${user}@`, `${user}:s3cret-value@`);
    const error = await rejection(createPostgresDriver({ connectionString }));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain(`refused user "${user}"`);
    expect(error.hint).toContain('--store postgres://user:password@host:port/db');
    expect(JSON.stringify(error.toJSON())).not.toContain('s3cret-value');
  });

  it('without pg installed, says to install it', async () => {
    const missing = `pg-not-installed-${randomBytes(4).toString('hex')}`;
    const error = await rejection(createPgPool({}, () => import(missing)));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.hint).toBe('npm install pg');
  });

  it('a connection the server terminates mid-query becomes STORE_UNAVAILABLE', async () => {
    const application = `scratchpad_kill_${randomBytes(4).toString('hex')}`;
    const victim = new pg.Client({ connectionString: url, application_name: application });
    victim.on('error', () => {});
    await victim.connect();
    // The handler is attached at once: the rejection can arrive while the loop below still awaits the admin query.
    const sleeping = victim.query('SELECT pg_sleep(30)').then(
      () => undefined,
      (error: unknown) => error,
    );
    let terminated = 0;
    while (terminated === 0) {
      const result = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'SELECT pg_sleep%'`,
        [application],
      );
      terminated = result.rowCount ?? 0;
    }
    const failure = await sleeping;
    await victim.end().catch(() => {});
    const mapped = toStoreError(failure, describeTarget(url));
    expect(ScratchpadError.hasCode(mapped, 'STORE_UNAVAILABLE')).toBe(true);
    expect((mapped as ScratchpadError).message).toContain(`${server.hostname}:`);
  });

  it('leaves ordinary SQL errors alone', async () => {
    const failure = await admin
      .query('SELECT * FROM no_such_table_anywhere')
      .catch((error: unknown) => error);
    expect(toStoreError(failure, describeTarget(url))).toBe(failure);
  });

  it('describes targets from URLs and libpq environment defaults', () => {
    expect(describeTarget('postgres://alice:pw@db.example:6543/app')).toEqual({
      host: 'db.example',
      port: 6543,
      user: 'alice',
      database: 'app',
    });
    expect(describeTarget('postgresql:///app?host=/var/run/postgresql', { PGUSER: 'bob' })).toEqual({
      host: '/var/run/postgresql',
      port: 5432,
      user: 'bob',
      database: 'app',
    });
    expect(describeTarget(undefined, { PGHOST: 'h', PGPORT: '7000', PGUSER: 'carol' })).toEqual({
      host: 'h',
      port: 7000,
      user: 'carol',
      database: 'carol',
    });
  });
});
