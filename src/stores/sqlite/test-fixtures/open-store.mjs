/**
 * Child process of sqlite-errors.test.ts: opens a store (run as another user to test permissions) and prints
 * one JSON line: `{ ok: true }` or the error's code, message and hint.
 *
 *   node open-store.mjs DIST_DIR DATABASE_PATH
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, databasePath] = process.argv.slice(2);
const { createSqliteDriver } = await import(pathToFileURL(join(dist, 'stores', 'sqlite', 'index.js')).href);
try {
  const driver = createSqliteDriver({ path: databasePath });
  await driver.doStats();
  await driver.close();
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, code: error.code, message: error.message, hint: error.hint }));
}
