import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { StoreDriver } from '../../src/stores/driver.js';
import { createFsDriver } from '../../src/stores/fs/fs-driver.js';
import { createMemoryDriver } from '../../src/stores/memory/memory-driver.js';
import { createPostgresDriver } from '../../src/stores/postgres/postgres-driver.js';
import { createSqliteDriver } from '../../src/stores/sqlite/sqlite-driver.js';

/** Every backend, each opened on its own throwaway file, folder or PostgreSQL schema; `remove()` deletes them all. */
export interface ThrowawayBackends {
  open: Record<string, () => StoreDriver | Promise<StoreDriver>>;
  remove(): Promise<void>;
}

/** {@link ThrowawayBackends} whose folders and schemas are named after `tag` (call `remove` in `afterAll`). */
export function throwawayBackends(tag: string): ThrowawayBackends {
  const postgresUrl = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const directories: string[] = [];
  const schemas: string[] = [];
  const temporary = (kind: string) => {
    const directory = mkdtempSync(join(tmpdir(), `${tag}-${kind}-`));
    directories.push(directory);
    return directory;
  };
  return {
    open: {
      memory: () => createMemoryDriver(),
      sqlite: () => createSqliteDriver({ path: join(temporary('sqlite'), 'store.db') }),
      fs: () => createFsDriver({ root: temporary('fs') }),
      postgres: () => {
        const schema = `scratchpad_${tag}_${randomBytes(6).toString('hex')}`;
        schemas.push(schema);
        return createPostgresDriver({ connectionString: postgresUrl, schema });
      },
    },
    async remove() {
      for (const directory of directories) rmSync(directory, { recursive: true, force: true });
      const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
      for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}
