/**
 * Child process of sqlite-processes.test.ts: writes an 8 MB entry in 64 KiB chunks, starts its indexing with a
 * search (a file-backed store indexes on its index thread), and kills itself with SIGKILL once half the chunks
 * are indexed but not all (watched through a second connection), leaving the index half-built for the next driver.
 *
 *   node crash-indexer.mjs DIST_DIR DATABASE_PATH
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

const watcher = new Database(databasePath, { readonly: true });
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
