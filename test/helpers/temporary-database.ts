import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A PostgreSQL database of this test run's own on the server of `url` (created now, dropped by `drop`), for tests
 * that reach the store only through a URL (the CLI): they would otherwise use the server's default schema, which
 * a branch with a newer migration moves past what an older checkout can open.
 */
export async function temporaryDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `scratchpad_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
