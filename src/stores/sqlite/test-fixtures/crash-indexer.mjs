/**
 * Child process of sqlite-processes.test.ts: writes an 8 MB entry in 64 KiB chunks, starts its indexing with a
 * search (a file-backed store indexes on its index thread), and kills itself with SIGKILL once half the chunks
 * are indexed but not all (watched through a second connection), leaving the index half-built for the next driver.
 *
 *   node crash-indexer.mjs DIST_DIR DATABASE_PATH
 */
import { writeBigSession } from './big-session.mjs';

const [dist, databasePath] = process.argv.slice(2);
const pad = await writeBigSession(dist, databasePath);

// The watcher opens the file through the store's own SQLite binding: one SQLite library per process.
const { openSqliteConnection } = await import(`${dist}/stores/sqlite/sqlite-binding.js`);
const watcher = openSqliteConnection(databasePath, { readOnly: true });
const indexed = watcher.prepare('SELECT count(*) AS count FROM chunks WHERE indexed = 1');
const total = watcher.prepare('SELECT count(*) AS count FROM chunks').get().count;
const search = pad.search('s1', 'quokka0');
for (;;) {
  await new Promise((resolve) => setImmediate(resolve));
  const done = indexed.get().count;
  // Past half: the index thread has taken over from the loop's first steps (it starts after 50 ms of them).
  if (done >= total / 2 && done < total - 10) process.kill(process.pid, 'SIGKILL');
  if (done === total) {
    await search;
    console.error('the index was complete before it could be interrupted');
    process.exit(2);
  }
}
