/**
 * Child process of postgres-search-stall.test.ts: searches a session whose index is not built, so the driver
 * indexes it in the background, and kills itself with SIGKILL as soon as the search has answered from the part
 * indexed so far, leaving what a crashed process leaves (some chunks indexed, the rest not, statements cut off).
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
const found = await pad.search(session, query);
process.stdout.write(`${JSON.stringify({ indexing: found.indexing ?? null })}\n`);
process.kill(process.pid, 'SIGKILL');
