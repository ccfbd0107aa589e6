// Session handles on every store backend (decision 019): the registry entry's create-once write and TTL, and a
// handle's confinement to its own session, hold on memory, SQLite, the file system and PostgreSQL alike.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { serveSession } from '../src/mcp/served-session.js';
import { SessionHandleTools } from '../src/mcp/session-handle-tools.js';
import { SessionHandles } from '../src/mcp/session-handles.js';
import { createScratchpad } from '../src/service/scratchpad.js';
import type { StoreDriver } from '../src/stores/driver.js';
import { createFsDriver } from '../src/stores/fs/fs-driver.js';
import { createMemoryDriver } from '../src/stores/memory/memory-driver.js';
import { createPostgresDriver } from '../src/stores/postgres/postgres-driver.js';
import { createSqliteDriver } from '../src/stores/sqlite/sqlite-driver.js';
import { createPreset } from '../src/tools/presets/create-preset.js';

const postgresUrl = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const directories: string[] = [];
const schemas: string[] = [];
afterAll(async () => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

function temporary(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  directories.push(directory);
  return directory;
}

const BACKENDS: Record<string, () => StoreDriver | Promise<StoreDriver>> = {
  memory: () => createMemoryDriver(),
  sqlite: () => createSqliteDriver({ path: join(temporary('handles-sqlite-'), 'store.db') }),
  fs: () => createFsDriver({ root: temporary('handles-fs-') }),
  postgres: () => {
    const schema = `scratchpad_handles_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    return createPostgresDriver({ connectionString: postgresUrl, schema });
  },
};

function textOf(result: { content: unknown }): string {
  return (result.content as { text: string }[]).map((block) => block.text).join('\n');
}

describe.each(Object.keys(BACKENDS))('session handles on the %s store', (backend) => {
  it('confine each handle to its session and end it with its lifetime', async () => {
    let clock = Date.now();
    const now = () => clock;
    const scratchpad = createScratchpad({
      driver: await (BACKENDS[backend] as () => Promise<StoreDriver>)(),
      now,
    });
    try {
      const options = { scratchpad, session: 'own', preset: createPreset('default') };
      const tools = new SessionHandleTools(
        new SessionHandles(scratchpad, { lifetimeMs: 60_000, now }),
        serveSession(options),
        (session) => serveSession({ ...options, session }),
      );
      const issue = async () =>
        ((await tools.call('scratchpad_session', {})).structuredContent as { handle: string }).handle;
      const a = await issue();
      const b = await issue();
      const written = await tools.call('scratchpad_write', { session: a, name: 'n', content: 'IN-A-77\n' });
      expect(written.isError ?? false).toBe(false);
      expect(textOf(await tools.call('scratchpad_read', { session: a, name: 'n' }))).toContain('IN-A-77');
      for (const args of [{ session: b, name: 'n' }, { name: 'n' }]) {
        const result = await tools.call('scratchpad_read', args);
        expect(result.isError).toBe(true);
        expect(textOf(result)).not.toContain('IN-A-77');
      }
      clock += 60_001;
      const expired = await tools.call('scratchpad_read', { session: a, name: 'n' });
      expect(textOf(expired)).toMatch(/^Error \(SESSION_HANDLE_EXPIRED\)/);
    } finally {
      await scratchpad.close();
    }
  }, 60_000);
});
