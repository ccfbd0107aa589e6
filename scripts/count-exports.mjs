// Counts the run-time (value) exports of every entry point in package.json `exports`, importing the built dist.
// Usage: npm run build && node scripts/count-exports.mjs [package root]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const root = process.argv[2] ?? '.';
const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const [subpath, target] of Object.entries(exports)) {
  if (typeof target !== 'object') continue;
  const module = await import(pathToFileURL(join(root, target.default)).href);
  console.log(`${subpath.padEnd(22)} ${Object.keys(module).length}`);
}
