import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Newest modification time of any file under `directory`. */
function newest(directory: string): number {
  let latest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The absolute path of `dist/` for tests that run the built package in child processes (`npm test` builds it
 * first); builds it, and the runtime package's, when missing or older than any source. tsc emits even when some file does not
 * typecheck, so the build is judged by its output.
 */
export function ensureBuilt(): string {
  const main = join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(main) || statSync(main).mtimeMs < newest(join(root, 'src'))) {
    try {
      execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    } catch {
      // Type errors elsewhere: the output below is what counts.
    }
  }
  if (!existsSync(main)) throw new Error('Could not build dist/: run `npm run build`.');
  // The runtime's commands (`run`, `executor`, …) load the runtime package's build, built against the library's.
  const runtime = join(root, 'packages', 'runtime');
  const runtimeCli = join(runtime, 'dist', 'cli', 'index.js');
  if (!existsSync(runtimeCli) || statSync(runtimeCli).mtimeMs < newest(join(runtime, 'src'))) {
    try {
      execFileSync('npx', ['tsc', '-p', 'packages/runtime/tsconfig.build.json'], {
        cwd: root,
        stdio: 'inherit',
      });
    } catch {
      // As above.
    }
  }
  return join(root, 'dist');
}

/** Absolute path of the built CLI entry (`dist/cli/main.js`). */
export function builtCli(): string {
  return join(ensureBuilt(), 'cli', 'main.js');
}
