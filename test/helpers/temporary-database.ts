import { randomBytes } from 'node:crypto';
import pg from 'pg';

const PREFIX = 'scratchpad_tmpdb_';

/**
 * A PostgreSQL database of this test run's own on the server of `url` (created now, dropped by `drop`; PostgreSQL 13 or later), for tests
 * that reach the store only through a URL (the CLI): they would otherwise use the server's default schema, which
 * a branch with a newer migration moves past what an older checkout can open.
 */
export async function temporaryDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // A run killed before its drop left its database behind: those over an hour old go now.
    const found = await admin.query(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [
      PREFIX,
    ]);
    for (const { datname } of found.rows as { datname: string }[]) {
      const created = Number(datname.slice(PREFIX.length).split('_')[0]);
      if (Date.now() / 1000 - created > 3600)
        await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
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
