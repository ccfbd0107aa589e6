import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The word after `flag` on the command line (or in `args`), else `fallback`. */
export function optionValue(flag, fallback, args = process.argv.slice(2)) {
  const index = args.indexOf(flag);
  return index === -1 ? fallback : args[index + 1];
}

/** Ends the process with a message when dist/ is not built; `script` is the npm script that builds first. */
export function requireBuilt(script) {
  if (existsSync(join(repository, 'dist', 'index.js'))) return;
  console.error(
    `dist/ is missing: run \`npm run build\` first${script ? ` (or \`npm run ${script}\`, which builds)` : ''}.`,
  );
  process.exit(1);
}
