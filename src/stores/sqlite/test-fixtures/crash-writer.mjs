/**
 * Child process of sqlite-processes.test.ts: starts writing a large entry as a stream and kills itself with
 * SIGKILL halfway, leaving what a crashed writer leaves (a staging area with chunks in a side file). The text is
 * base64 of random bytes: it compresses by only a quarter, so with the default compression most of it still
 * goes past the inline MiB into the side file.
 *
 *   node crash-writer.mjs DIST_DIR DATABASE_PATH
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, databasePath] = process.argv.slice(2);
const { createScratchpad } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { createSqliteDriver } = await import(pathToFileURL(join(dist, 'stores', 'sqlite', 'index.js')).href);

const pad = createScratchpad({ driver: createSqliteDriver({ path: databasePath }) });
async function* pieces() {
  for (let index = 0; index < 64; index++) {
    // 32 pieces of 128 KiB (4 MiB) are staged, then the process dies before the write can commit.
    if (index === 32) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      process.kill(process.pid, 'SIGKILL');
    }
    yield `${String(index).padStart(6, '0')} ${randomBytes(96 * 1024).toString('base64')}\n`.slice(
      0,
      128 * 1024,
    );
  }
}
await pad.write('s1', 'never-committed', pieces());
