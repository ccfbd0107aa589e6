/**
 * Type-checking cost for a user: `npm run bench:types` (builds dist/ first).
 *
 * Writes a 40-line strict user script for each of `llm-scratchpad/tools`, the root entry point and
 * `llm-scratchpad/mcp` (bench/lib/type-check-scripts.js) into a temporary project whose
 * `node_modules/llm-scratchpad` links to this checkout, and runs `tsc --noEmit --strict --listFiles script.ts`
 * (TypeScript's defaults otherwise) twice: as is, and with `--types node` and `@types/node` installed, as a Node
 * user has it. Reports the declaration files read (all of them, TypeScript's own lib files included), how many
 * come from provider SDKs (@anthropic-ai/sdk, openai, ollama, ai), the count by package, tsc's exit code and the
 * wall time of the tsc process (median of the rounds; the machine may be shared).
 * Options: --rounds N (default 1), --package DIR (another built checkout to measure instead, e.g. to compare
 * with an older commit), --json PATH (default bench/results/types.json).
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionValue, requireBuilt } from './lib/command-line.js';
import { median, printTable, round } from './lib/measure.js';
import { USER_SCRIPTS } from './lib/type-check-scripts.js';
import { typeFootprint } from './lib/type-footprint.js';

const here = dirname(fileURLToPath(import.meta.url));
requireBuilt('bench:types');
const rounds = Number(optionValue('--rounds', '1'));
const packageRoot = resolve(optionValue('--package', join(here, '..')));
const jsonPath = optionValue('--json', join(here, 'results', 'types.json'));
const typescript = JSON.parse(
  readFileSync(join(here, '..', 'node_modules', 'typescript', 'package.json'), 'utf8'),
).version;
console.log(`TypeScript ${typescript}, package at ${packageRoot}\n`);

const results = [];
for (const [entry, source] of Object.entries(USER_SCRIPTS)) {
  for (const nodeTypes of [false, true]) {
    const runs = Array.from({ length: rounds }, () => typeFootprint(source, { nodeTypes, packageRoot }));
    const [first] = runs;
    results.push({
      entry,
      nodeTypes,
      scriptLines: source.split('\n').length - 1,
      declarationFiles: first.declarationFiles,
      providerSdkFiles: first.providerSdkFiles,
      packages: first.packages,
      exitCode: first.exitCode,
      errors: first.errors.slice(0, 5),
      seconds: round(median(runs.map((run) => run.seconds)), 2),
    });
  }
}

const topPackages = (packages) =>
  Object.entries(packages)
    .sort((a, b) => b[1] - a[1])
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
printTable(
  ['entry', '--types node', 'declaration files', 'from provider SDKs', 'tsc exit', 'seconds', 'by package'],
  results.map((result) => [
    result.entry,
    result.nodeTypes ? 'yes' : 'no',
    result.declarationFiles,
    result.providerSdkFiles,
    result.exitCode,
    result.seconds,
    topPackages(result.packages),
  ]),
);
for (const result of results.filter((each) => each.errors.length > 0))
  console.log(`\n${result.entry}${result.nodeTypes ? ' (--types node)' : ''}: ${result.errors.join('\n  ')}`);

await mkdir(dirname(jsonPath), { recursive: true });
await writeFile(jsonPath, `${JSON.stringify({ packageRoot, rounds, typescript, results }, null, 2)}\n`);
console.log(`\nWrote ${jsonPath}`);
