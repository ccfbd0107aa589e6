import type pg from 'pg';

/** Fails the suite at once, naming the server and the setting, when the test server does not answer. */
export async function requireTestServer(admin: pg.Pool, url: string): Promise<void> {
  try {
    await admin.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `The PostgreSQL test server at ${url} is unreachable; start it or set SCRATCHPAD_TEST_POSTGRES_URL.`,
      { cause: error },
    );
  }
}
