/**
 * The README's TypeScript blocks are code a user copies: each one is a module of its own in a project outside the
 * repository, where `llm-scratchpad` (subpaths included) is this checkout's built package, and `tsc` checks them
 * all with a user's strict options (`USER_COMPILER_OPTIONS` in helpers/linked-package-project.ts). The blocks that
 * need nothing but the package, or OpenAI (pointed at a fake OpenAI server), also run against a SQLite store in
 * that folder, and must print exactly what their comments say they print.
 */
import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchpad, openStore } from '../src/index.js';
import { type FakeReply, type FakeRequest, startFakeOpenAI } from '../src/testing/index.js';
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

/** A web page of 200 KB on 127.0.0.1, for a block's `fetch_page` tool, counting its requests. */
const page = {
  text: Array.from({ length: 4_000 }, (_, index) =>
    `fs.cp line ${index}: copies a directory tree`.padEnd(49, ' '),
  ).join('\n'),
  url: '',
  requests: 0,
};
let pageServer: Server;

/**
 * The fake model's one reply to a block: it calls `fetch_page` on the page above and `scratchpad_list` when the
 * request offers them, and answers in text otherwise.
 */
function callOfferedTools(request: FakeRequest): FakeReply {
  const offered = ((request.body.tools ?? []) as Array<{ function?: { name: string } }>).map(
    (tool) => tool.function?.name,
  );
  const toolCalls = [
    ...(offered.includes('fetch_page') ? [{ name: 'fetch_page', arguments: { url: page.url } }] : []),
    ...(offered.includes('scratchpad_list') ? [{ name: 'scratchpad_list', arguments: {} }] : []),
  ];
  return toolCalls.length > 0 ? { toolCalls } : { text: 'The build fails at step 17.' };
}

/** The SHA-256 of every entry the blocks left in their store (`sqlite:./scratch.db` in the project folder). */
async function storedSha256s(): Promise<string[]> {
  const pad = createScratchpad({
    driver: await openStore(`sqlite:${join(project.directory, 'scratch.db')}`),
  });
  try {
    const hashes: string[] = [];
    for (const { id } of await pad.sessions()) {
      for await (const entry of pad.session(id).entries()) hashes.push(entry.sha256);
    }
    return hashes;
  } finally {
    await pad.close();
  }
}

let project: LinkedPackageProject;
let diagnostics: TypeDiagnostic[];

beforeAll(async () => {
  pageServer = createServer((_request, response) => {
    page.requests++;
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(page.text);
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  page.url = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/api/fs.html`;
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
  await new Promise((resolve) => pageServer?.close(resolve));
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

  /** The blocks that run: those that need nothing but the package, and those that call OpenAI (a fake server). */
  const runnable = blocks.filter((block) =>
    importedPackages(block.code).every((name) => name === packageName || name === 'openai'),
  );

  it('runs the blocks that need only the package or OpenAI', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(4);
  });

  it.each(runnable)(
    'README.md:$fenceLine runs and prints what its comments say',
    async (block) => {
      const model = await startFakeOpenAI([callOfferedTools]);
      try {
        const { stdout } = await project.run(moduleOf(block), {
          env: { OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-readme-test' },
        });
        expect(stdout.split('\n').filter((line) => line !== '')).toEqual(claimedOutput(block));
        if (importedPackages(block.code).includes('openai')) expect(model.remaining).toBe(0);
      } finally {
        await model.close();
      }
    },
    120_000,
  );

  it('a page a wrapped tool fetched is stored whole, not put in the context', async () => {
    expect(page.requests).toBeGreaterThan(0);
    expect(await storedSha256s()).toContain(createHash('sha256').update(page.text).digest('hex'));
  });
});
