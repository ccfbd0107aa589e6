/**
 * Child process of sqlite-processes.test.ts: writes an 8 MB entry in 64 KiB chunks, searches until the session is
 * fully indexed, deletes the entry, and kills itself with SIGKILL once the background un-indexing has removed
 * some of the entry's index rows but not all (watched through a second connection), leaving the queue
 * half-done for the next driver.
 *
 *   node crash-unindexer.mjs DIST_DIR DATABASE_PATH
 */
import { writeBigSession } from './big-session.mjs';

const [dist, databasePath] = process.argv.slice(2);
const pad = await writeBigSession(dist, databasePath);
let result = await pad.search('s1', 'quokka0');
while (result.indexing) result = await pad.search('s1', 'quokka0');

// The watcher opens the file through the store's own SQLite binding: one SQLite library per process.
const { openSqliteConnection } = await import(`${dist}/stores/sqlite/sqlite-binding.js`);
const watcher = openSqliteConnection(databasePath, { readOnly: true });
const indexedOfQueued = watcher.prepare(
  `SELECT count(*) AS count FROM search_unindex JOIN chunks ON chunks.content = search_unindex.content
   WHERE chunks.indexed = 1`,
);
const total = watcher.prepare('SELECT count(*) AS count FROM chunks WHERE indexed = 1').get().count;
await pad.delete('s1', 'big');
for (;;) {
  await new Promise((resolve) => setImmediate(resolve));
  const left = indexedOfQueued.get().count;
  if (left > 0 && left < total - 10) process.kill(process.pid, 'SIGKILL');
  if (left === 0) {
    console.error('the queue finished before it could be interrupted');
    process.exit(2);
  }
}
