import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of the built CLI entry (`dist/cli/main.js`); builds `dist/` when it is missing or older than src. */
export function builtCli(): string {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const main = `${root}dist/cli/main.js`;
  if (!existsSync(main) || statSync(main).mtimeMs < statSync(`${root}src/cli/run-cli.ts`).mtimeMs) {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  }
  return main;
}
