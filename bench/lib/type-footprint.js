/**
 * What a user's `tsc` reads to type-check a script against this checkout's built package: a temporary project
 * whose `node_modules/llm-scratchpad` links to the repository (so the package resolves through its `exports`, as
 * an installed copy would), checked with `tsc --noEmit --strict --listFiles` and TypeScript's other defaults.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Packages of the model providers' SDKs, whose declarations a user importing this package should not pay for. */
export const PROVIDER_SDKS = [
  '@anthropic-ai/sdk',
  'openai',
  'ollama',
  'ai',
  '@ai-sdk/provider',
  '@ai-sdk/provider-utils',
];

const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/** The package a listed file belongs to: `typescript` for its lib files, `llm-scratchpad` for this repository's. */
export function packageOf(path, packageRoot = repository) {
  const marker = '/node_modules/';
  const at = path.lastIndexOf(marker);
  if (at === -1) return path.startsWith(`${packageRoot}/`) ? 'llm-scratchpad' : '(the script)';
  const [first = '', second = ''] = path.slice(at + marker.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/**
 * Type-checks `source` as `script.ts` in a fresh project and reports the declaration files read, by package and
 * from provider SDKs, the exit code, the first errors and the wall time of the `tsc` process. `nodeTypes` adds
 * `--types node` with this repository's `@types/node` installed in the project, as a Node user would have it.
 * `packageRoot` is the checkout the package resolves to (this repository unless another is given, to compare).
 */
export function typeFootprint(source, { nodeTypes = false, packageRoot: root = repository } = {}) {
  const packageRoot = realpathSync(root);
  const project = mkdtempSync(join(tmpdir(), 'type-footprint-'));
  try {
    mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
    symlinkSync(packageRoot, join(project, 'node_modules', 'llm-scratchpad'), 'dir');
    if (nodeTypes)
      symlinkSync(
        join(repository, 'node_modules', '@types', 'node'),
        join(project, 'node_modules', '@types', 'node'),
        'dir',
      );
    writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
    writeFileSync(join(project, 'script.ts'), source);
    const tsc = join(repository, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [
      tsc,
      '--noEmit',
      '--strict',
      '--listFiles',
      ...(nodeTypes ? ['--types', 'node'] : []),
      'script.ts',
    ];
    const started = performance.now();
    const run = spawnSync(process.execPath, args, {
      cwd: project,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - started) / 1000;
    const lines = run.stdout.split('\n').filter(Boolean);
    const declarations = lines.filter((line) => DECLARATION_FILE.test(line));
    const packages = {};
    for (const path of declarations) {
      const name = packageOf(path, packageRoot);
      packages[name] = (packages[name] ?? 0) + 1;
    }
    const providerSdkFiles = declarations.filter((path) =>
      PROVIDER_SDKS.includes(packageOf(path, packageRoot)),
    );
    return {
      declarationFiles: declarations.length,
      providerSdkFiles: providerSdkFiles.length,
      packages,
      exitCode: run.status,
      errors: lines.filter((line) => / error TS\d+:/.test(line)),
      seconds,
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
