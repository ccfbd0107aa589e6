/**
 * Child process of sqlite-processes.test.ts: writes an 8 MB entry in 64 KiB chunks, searches until the session is
 * fully indexed, deletes the entry, and kills itself with SIGKILL once the background un-indexing has removed
 * some of the entry's index rows but not all (watched through a second connection), leaving the queue
 * half-done for the next driver.
 *
 *   node crash-unindexer.mjs DIST_DIR DATABASE_PATH
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

const [dist, databasePath] = process.argv.slice(2);
const { createScratchpad } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { createSqliteDriver } = await import(pathToFileURL(join(dist, 'stores', 'sqlite', 'index.js')).href);

const pad = createScratchpad({ driver: createSqliteDriver({ path: databasePath }), chunkSize: 64 * 1024 });
const lines = [];
for (let line = 0, bytes = 0; bytes < 8_000_000; line += 1) {
  const text = `worker-${line % 97} handled request ${line * 7919} in ${line % 503} ms quokka${line % 13}`;
  lines.push(text);
  bytes += text.length + 1;
}
await pad.write('s1', 'big', lines.join('\n'));
await pad.write('s1', 'small', 'a quokka0 lives here');
let result = await pad.search('s1', 'quokka0');
while (result.indexing) result = await pad.search('s1', 'quokka0');

const watcher = new Database(databasePath, { readonly: true });
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
