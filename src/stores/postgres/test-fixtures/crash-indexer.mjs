/**
 * Child process of postgres-search-stall.test.ts: searches a session whose index is not built, so the driver
 * indexes it in the background, and kills itself with SIGKILL as soon as a search has answered from a part
 * indexed so far (at least one chunk), leaving what a crashed process leaves (some chunks indexed, the rest not, statements cut off).
 * Prints the progress it saw before dying.
 *
 *   node crash-indexer.mjs DIST_DIR POSTGRES_URL SCHEMA SESSION QUERY
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, url, schema, session, query] = process.argv.slice(2);
const { createScratchpad } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { createPostgresDriver } = await import(
  pathToFileURL(join(dist, 'stores', 'postgres', 'index.js')).href
);

const pad = createScratchpad({ driver: await createPostgresDriver({ connectionString: url, schema }) });
let found = await pad.search(session, query);
// The first answer can come before the background indexer has committed any chunk (a loaded machine): ask again
// until some are indexed, so that the kill leaves part of the index built and part not.
while (found.indexing && found.indexing.done === 0) {
  await new Promise((resolve) => setTimeout(resolve, 20));
  found = await pad.search(session, query);
}
process.stdout.write(`${JSON.stringify({ indexing: found.indexing ?? null })}\n`);
process.kill(process.pid, 'SIGKILL');
