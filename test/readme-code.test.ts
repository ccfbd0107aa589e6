/**
 * The README's TypeScript blocks are code a user copies: each one is a module of its own in a project outside the
 * repository, where `llm-scratchpad` (subpaths included) is this checkout's built package, and `tsc` checks them
 * all with a user's strict options (`USER_COMPILER_OPTIONS` in helpers/linked-package-project.ts). The blocks that
 * need nothing but the package (no provider SDK, no network) also run, against a SQLite store in that folder, and
 * must print exactly what their comments say they print.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './helpers/built-cli.js';
import {
  createLinkedPackageProject,
  importedPackages,
  type LinkedPackageProject,
  type TypeDiagnostic,
} from './helpers/linked-package-project.js';
import { type CodeBlock, markdownCodeBlocks } from './helpers/markdown-code-blocks.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const readme = await readFile(join(root, 'README.md'), 'utf8');
const blocks = markdownCodeBlocks(readme, 'ts');
const packageName = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string }).name;

/** The module file of a block, named after its line in the README. */
function moduleOf(block: CodeBlock): string {
  return `readme-line-${block.fenceLine}.ts`;
}

/**
 * The `build.log` the first library block reads, shaped like the one its comments describe: 88,001 lines and
 * 9,104,233 characters, the last 50 lines 3,000 characters, with a few ERROR lines.
 */
function buildLog(): string {
  const headLines = 87_951;
  const headChars = 9_101_233;
  const base = Math.floor(headChars / headLines);
  const longer = headChars - base * headLines;
  const line = (index: number, length: number) => {
    const level = index % 4_000 === 17 ? 'ERROR' : 'INFO';
    return `2026-12-01T10:${String(Math.floor(index / 6_000) % 60).padStart(2, '0')}:00Z ${level} step ${index} `.padEnd(
      length - 1,
      '.',
    );
  };
  const lines: string[] = [];
  for (let index = 0; index < headLines; index++) lines.push(line(index, base + (index < longer ? 1 : 0)));
  for (let index = headLines; index < headLines + 50; index++) lines.push(line(index, 60));
  return `${lines.join('\n')}\n`;
}

/**
 * What a block claims it prints: the trailing comment of each line that calls `console.log` outside a loop
 * (`console.log(tail.description); // chars …`), in order.
 */
function claimedOutput(block: CodeBlock): string[] {
  return block.code
    .split('\n')
    .filter((line) => !/^\s*(for|while)\b/.test(line))
    .flatMap((line) => /console\.log\(.*\);?\s*\/\/\s*(.+)$/.exec(line)?.[1]?.trim() ?? []);
}

let project: LinkedPackageProject;
let diagnostics: TypeDiagnostic[];

beforeAll(async () => {
  ensureBuilt();
  project = await createLinkedPackageProject(
    Object.fromEntries(blocks.map((block) => [moduleOf(block), block.code])),
    {
      'build.log': buildLog(),
    },
  );
  diagnostics = await project.typeCheck();
}, 300_000);

afterAll(async () => {
  if (project) await rm(project.directory, { recursive: true, force: true });
});

describe("README.md's TypeScript blocks, against the built package", () => {
  it('finds the blocks, and the fixture has the shape the first block describes', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks.every((block) => importedPackages(block.code).includes(packageName))).toBe(true);
    const log = buildLog();
    expect([log.length, log.split('\n').length - 1]).toEqual([9_104_233, 88_001]);
  });

  it.each(blocks)('README.md:$fenceLine type-checks', (block) => {
    const errors = diagnostics
      .filter((diagnostic) => diagnostic.file === moduleOf(block))
      .map(
        (diagnostic) =>
          `README.md:${block.fenceLine + diagnostic.line}:${diagnostic.column} ${diagnostic.code}: ${diagnostic.message}`,
      );
    expect(errors).toEqual([]);
  });

  it("the package's declaration files and the compiler options raise no error of their own", () => {
    const blockFiles = new Set(blocks.map(moduleOf));
    expect(diagnostics.filter((diagnostic) => !blockFiles.has(diagnostic.file))).toEqual([]);
  });

  const selfContained = blocks.filter((block) =>
    importedPackages(block.code).every((name) => name === packageName),
  );

  it('runs the blocks that need only the package', () => {
    expect(selfContained.length).toBeGreaterThanOrEqual(2);
  });

  it.each(selfContained)(
    'README.md:$fenceLine runs and prints what its comments say',
    async (block) => {
      const { stdout } = await project.run(moduleOf(block));
      expect(stdout.split('\n').filter((line) => line !== '')).toEqual(claimedOutput(block));
    },
    120_000,
  );
});
