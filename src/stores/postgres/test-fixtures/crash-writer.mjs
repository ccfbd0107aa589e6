/**
 * Child process of postgres-crash.test.ts: writes entries as fast as it can until its parent kills it with
 * SIGKILL, so the kill lands in the middle of some write (a small one, in one round trip). Each write that
 * returned is printed as `ack I` before the next starts: write I is `w-I` with contentOf(I), then `counter`
 * replaced with I. With STREAM_AFTER=N, after N acks it streams a large entry `big` instead (3 MiB, more than the
 * driver buffers, so its chunks go to a staging row first) and prints `staging` once two pieces were taken,
 * then waits: the parent's kill lands while the staging row holds them.
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
const { contentOf, largePieces } = await import(new URL('./crash-content.mjs', import.meta.url).href);

const pad = createScratchpad({
  driver: await createPostgresDriver({ connectionString: url, schema }),
  chunkSize: 16 * 1024,
});
const first = Number(process.env.FIRST_WRITE ?? 0);
const streamAfter =
  process.env.STREAM_AFTER === undefined ? Number.POSITIVE_INFINITY : Number(process.env.STREAM_AFTER);

async function* large() {
  const [one, two, three] = largePieces();
  yield one;
  yield two;
  yield three.slice(0, 1);
  // Asked for more: the first two pieces went through the driver's buffer to the staging row.
  process.stdout.write('staging\n');
  await new Promise(() => {});
}

for (let index = first; ; index++) {
  if (index - first === streamAfter) await pad.write('s1', 'big', large());
  await pad.write('s1', `w-${index}`, contentOf(index));
  await pad.write('s1', 'counter', String(index));
  process.stdout.write(`ack ${index}\n`);
}
