/**
 * Child process of postgres-crash.test.ts: writes entries as fast as it can until its parent kills it with
 * SIGKILL, so the kill lands in the middle of some write (a small one in one round trip, or a large one whose
 * chunks go to a staging row first). Each write that returned is printed as `ack I` before the next starts.
 * Write I is `w-I` with {@link contentOf} I, then `counter` replaced with I.
 *
 *   node crash-writer.mjs DIST_DIR POSTGRES_URL SCHEMA
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, url, schema] = process.argv.slice(2);
const { createScratchpad } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { createPostgresDriver } = await import(
  pathToFileURL(join(dist, 'stores', 'postgres', 'index.js')).href
);
const { contentOf } = await import(new URL('./crash-content.mjs', import.meta.url).href);

const pad = createScratchpad({
  driver: await createPostgresDriver({ connectionString: url, schema }),
  chunkSize: 16 * 1024,
});
const first = Number(process.env.FIRST_WRITE ?? 0);
for (let index = first; ; index++) {
  await pad.write('s1', `w-${index}`, contentOf(index));
  await pad.write('s1', 'counter', String(index));
  process.stdout.write(`ack ${index}\n`);
}
