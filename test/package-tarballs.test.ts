// Both packages of the workspace pack as users install them (`npm pack --dry-run`, on the built dist/): the library
// without the runtime's code, prompts or executors, the runtime with them, and neither with sources or tests.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The files `npm pack` would put in the tarball of the package in `folder`, and the dependencies it declares. */
function packed(folder: string): { files: string[]; dependencies: Record<string, string> } {
  const [report] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: `${root}${folder}`,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  ) as { files: { path: string }[] }[];
  const manifest = JSON.parse(
    execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], {
      cwd: `${root}${folder}`,
      encoding: 'utf8',
    }),
  );
  return { files: (report?.files ?? []).map((file) => file.path), dependencies: manifest.dependencies ?? {} };
}

beforeAll(() => {
  builtCli();
}, 120_000);

describe('the packed packages', () => {
  it('llm-scratchpad: the library, its CLI and web app, no runtime and no provider SDK', () => {
    const { files, dependencies } = packed('.');
    expect(files).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/cli/main.js', 'dist/web/index.html']),
    );
    expect(files).toContain('dist/extension/index.js');
    expect(files.filter((file) => /^(src|test|packages|executors|prompts)\//.test(file))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.test.js'))).toEqual([]);
    expect(
      Object.keys(dependencies).filter((name) => /^(openai|ollama|@anthropic-ai\/sdk)$/.test(name)),
    ).toEqual([]);
  });

  it('llm-scratchpad-runtime: its build, prompts and shipped executors, the SDKs, and the library by version', () => {
    const { files, dependencies } = packed('packages/runtime');
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/cli/index.js',
        'dist/ollama.js',
        'prompts/fast.md',
        'executors/fs_read/manifest.json',
      ]),
    );
    expect(files.filter((file) => /^(src|test)\//.test(file) || file.endsWith('.test.js'))).toEqual([]);
    expect(dependencies).toMatchObject({
      'llm-scratchpad': expect.stringMatching(/^\d+\.\d+\.\d+$/),
      openai: expect.any(String),
      ollama: expect.any(String),
      '@anthropic-ai/sdk': expect.any(String),
    });
  });
});
