import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The workspace's two packages, in build order (the runtime is built against the library's declarations). */
const PACKAGES = [
  { folder: '.', project: 'tsconfig.build.json' },
  { folder: 'packages/runtime', project: 'packages/runtime/tsconfig.build.json' },
];

/**
 * Vitest's global setup: rebuilds a package's `dist/` (the TypeScript part, its `tsconfig.build.json`) when any module
 * under its `src/` is newer than its built twin, before a test file runs. Tests run modules from their source, but
 * worker threads (grep, the search index, the WAL checkpointer) and the CLI's end-to-end tests run `dist/`: without
 * this, a test run after an edit and without `npm run build` would test the old code and say nothing. `npm test`
 * builds first, so there this only checks (a few milliseconds).
 */
export default function freshBuild(): void {
  const root = process.cwd();
  for (const { folder, project } of PACKAGES) {
    const stale = staleModules(join(root, folder, 'src'), join(root, folder, 'dist'));
    if (stale.length === 0) continue;
    const shown = stale.slice(0, 3).map((file) => relative(root, file));
    console.log(
      `${join(folder, 'dist')}/ is older than ${stale.length} module${stale.length === 1 ? '' : 's'} of its src/ (${shown.join(', ')}${stale.length > 3 ? ', …' : ''}): building it (tsc -p ${project})`,
    );
    const build = spawnSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', project],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (build.status !== 0) {
      throw new Error(
        `the build before the tests failed (tsc -p ${project} exit ${build.status ?? build.signal}): fix it, or run npm run build`,
      );
    }
  }
}

/** The modules under `srcDir` (not tests, not declarations) whose `.js` twin under `distDir` is missing or older. */
export function staleModules(srcDir: string, distDir: string): string[] {
  const stale: string[] = [];
  const visit = (folder: string) => {
    for (const item of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, item.name);
      if (item.isDirectory()) {
        visit(path);
        continue;
      }
      if (!item.name.endsWith('.ts') || item.name.endsWith('.test.ts') || item.name.endsWith('.d.ts'))
        continue;
      const twin = join(distDir, relative(srcDir, path)).replace(/\.ts$/, '.js');
      const built = statSync(twin, { throwIfNoEntry: false });
      if (!built || built.mtimeMs < statSync(path).mtimeMs) stale.push(path);
    }
  };
  visit(srcDir);
  return stale;
}
