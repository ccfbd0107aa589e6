/**
 * Shared by the crash fixtures of sqlite-processes.test.ts (not a child process itself): opens the store at
 * DATABASE_PATH with 64 KiB chunks and writes session `s1`: `big`, 8 MB of log lines where `quokka0` appears on
 * every 13th line, and `small`, one line with `quokka0`. Returns the service.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function writeBigSession(dist, databasePath) {
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
  return pad;
}
