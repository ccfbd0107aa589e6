import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';

/**
 * The script of a worker thread that the package ships as `file` beside the module at `moduleUrl`. Tests run
 * modules from their TypeScript source, which a worker thread cannot load: from `src/` the script is the build's
 * twin under `dist/` (Vitest's global setup, `test/setup/fresh-build.ts`, rebuilds it when `src/` is newer). `undefined`
 * when that build does not exist.
 */
export function workerScript(moduleUrl: string, file: string): URL | undefined {
  const sibling = new URL(file, moduleUrl);
  if (!moduleUrl.endsWith('.ts')) return sibling;
  const at = sibling.pathname.lastIndexOf('/src/');
  if (at === -1) return undefined;
  const built = new URL(sibling);
  built.pathname = `${sibling.pathname.slice(0, at)}/dist/${sibling.pathname.slice(at + '/src/'.length)}`;
  return existsSync(fileURLToPath(built)) ? built : undefined;
}

/**
 * Asks a worker thread of ours to close (the `'close'` message: it closes its connection and ends) and resolves
 * once it exited. The thread is referenced again while it closes: an unreferenced thread lets the process end
 * before it exits, and with it the wait for it.
 */
export function closeWorker(worker: Worker): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.ref();
  worker.postMessage('close');
  return exited;
}
