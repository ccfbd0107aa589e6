/**
 * Child process of multi-process.test.ts: one of several writers hammering the same SQLite file.
 *
 *   node concurrent-writer.mjs DIST_DIR DATABASE_PATH WORKER ITERATIONS [INLINE_BYTES]
 *
 * Prints `ready` once loaded and waits for `go` on stdin, so all writers start together: they race to create
 * the database file, its schema and the entry `counter` ("0"). Then each iteration increments `counter` with
 * compare-and-set (read, write ifVersion, retry on VERSION_CONFLICT) and appends the line `wWORKER-ITERATION` to
 * `log` (retrying on VERSION_CONFLICT). With INLINE_BYTES, the driver keeps only that many bytes of a write inline
 * and each iteration also appends a block of several chunks to `big` and replaces `big-wWORKER`, so contents in
 * side files are appended, replaced and aborted under contention. Prints one JSON line with the number of
 * conflicts it retried.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, databasePath, worker, iterations, inlineBytes] = process.argv.slice(2);
const { createScratchpad, ScratchpadError } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { createSqliteDriver } = await import(pathToFileURL(join(dist, 'stores', 'sqlite', 'index.js')).href);

console.log('ready');
await new Promise((resolve) => {
  process.stdin.on('data', (data) => {
    if (data.toString().includes('go')) resolve();
  });
});
process.stdin.pause();

// Tiny chunks so appends rewrite tails and re-key chunks under contention.
const driver = createSqliteDriver({
  path: databasePath,
  ...(inlineBytes === undefined ? {} : { inlineBytes: Number(inlineBytes) }),
});
const pad = createScratchpad({ driver, chunkSize: 64 });
let conflicts = 0;
try {
  await pad.write('shared', 'counter', '0', { mode: 'create' });
} catch (error) {
  if (!ScratchpadError.hasCode(error, 'ENTRY_EXISTS')) throw error;
}

async function retrying(action) {
  for (;;) {
    try {
      return await action();
    } catch (error) {
      if (!ScratchpadError.hasCode(error, 'VERSION_CONFLICT')) throw error;
      conflicts++;
    }
  }
}

for (let iteration = 0; iteration < Number(iterations); iteration++) {
  await retrying(async () => {
    const current = await pad.read('shared', 'counter');
    await pad.write('shared', 'counter', String(Number(current.content) + 1), {
      ifVersion: current.entry.version,
    });
  });
  await retrying(() => pad.write('shared', 'log', `w${worker}-${iteration}\n`, { mode: 'append' }));
  if (inlineBytes !== undefined) {
    const block = bigBlock(worker, iteration);
    await retrying(() => pad.write('shared', 'big', block, { mode: 'append' }));
    await retrying(() => pad.write('shared', `big-w${worker}`, block.repeat(2)));
  }
}
await pad.close();
console.log(JSON.stringify({ worker: Number(worker), conflicts }));

/** A block of about 300 bytes (five 64-byte chunks) that names its writer and iteration. */
function bigBlock(worker, iteration) {
  return `b${worker}-${iteration}:${'é—x'.repeat(60)}\n`;
}
