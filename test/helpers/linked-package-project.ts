import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/**
 * The compiler options of a user's project: strict, ESM on Node (NodeNext), ES2022, Node's types and no DOM (the
 * package must not need a browser's types). `skipLibCheck: false` checks the declaration files too: with `true`, an error inside the package's dist/*.d.ts (a type imported from a module that does not resolve,
 * say) is not reported and the type silently becomes `any`, so the blocks would pass while a user's editor shows
 * nothing useful. It costs time: 23 s against 7 s for the README's four blocks on the 2-core CI machine (758 files
 * either way), most of it checking the provider SDKs' declarations, which pass.
 */
export const USER_COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  target: 'ES2022',
  lib: ['ES2022'],
  types: ['node'],
  skipLibCheck: false,
} as const;

/** A type error `tsc` reported. */
export interface TypeDiagnostic {
  /** The file, relative to the project folder. */
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

/** A throwaway project outside the repository where this checkout's package is installed (as a link). */
export interface LinkedPackageProject {
  directory: string;
  /** `tsc -p` on the project: every error it reports (none when the modules type-check). */
  typeCheck(): Promise<TypeDiagnostic[]>;
  /** Transpiles one module (no type check) and runs it with Node in the project folder, `env` added to ours. */
  run(
    file: string,
    options?: { timeoutMs?: number; env?: Record<string, string> },
  ): Promise<{ stdout: string; stderr: string }>;
}

/** The package names of the bare specifiers `code` imports (`openai`, `@anthropic-ai/sdk`), in order. */
export function importedPackages(code: string): string[] {
  const names = new Set<string>();
  for (const [, specifier] of code.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)) {
    if (!specifier || specifier.startsWith('.') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
  }
  return [...names];
}

/**
 * Makes a project in a temporary folder with `modules` (file name → TypeScript source) and a `node_modules`
 * that links this package to the repository root (so its `exports` resolve to the built dist/, subpaths
 * included), the runtime package to `packages/runtime` when a module imports it, and every other package the
 * modules import to the repository's own install. A module that imports a
 * package this repository does not depend on is an error: a user could not run it after installing ours.
 */
export async function createLinkedPackageProject(
  modules: Record<string, string>,
  files: Record<string, string | Uint8Array> = {},
): Promise<LinkedPackageProject> {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  // The runtime package of the workspace, linked like the library when a module imports it.
  const runtime = JSON.parse(await readFile(join(root, 'packages', 'runtime', 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
  };
  const known = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
    ...Object.keys(runtime.dependencies ?? {}),
  ]);
  const directory = await realpath(await mkdtemp(join(tmpdir(), 'linked-package-')));
  const links = new Map<string, string>([
    [manifest.name, root],
    ['@types/node', join(root, 'node_modules', '@types', 'node')],
  ]);
  for (const [file, code] of Object.entries(modules)) {
    for (const name of importedPackages(code)) {
      if (name === manifest.name) continue;
      if (name === runtime.name) {
        links.set(name, join(root, 'packages', 'runtime'));
        continue;
      }
      if (!known.has(name))
        throw new Error(
          `${file} imports ${name}, which is not a dependency of ${manifest.name}: add it or do not import it.`,
        );
      links.set(name, join(root, 'node_modules', name));
    }
  }
  for (const [name, target] of links) {
    const link = join(directory, 'node_modules', name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(target, link, 'dir');
  }
  await writeFile(join(directory, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  await writeFile(
    join(directory, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: USER_COMPILER_OPTIONS, files: Object.keys(modules) }),
  );
  for (const [file, content] of Object.entries({ ...modules, ...files })) {
    await writeFile(join(directory, file), content);
  }

  return {
    directory,
    async typeCheck() {
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      try {
        await run(process.execPath, [tsc, '-p', directory, '--pretty', 'false'], { cwd: directory });
        return [];
      } catch (error) {
        const output = (error as { stdout?: string }).stdout ?? '';
        const diagnostics = parseDiagnostics(output);
        if (diagnostics.length === 0) throw error;
        return diagnostics;
      }
    },
    async run(file, options = {}) {
      const source = await readFile(join(directory, file), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      const script = join(directory, file.replace(/\.ts$/, '.mjs'));
      await writeFile(script, outputText);
      return run(process.execPath, [script], {
        cwd: directory,
        timeout: options.timeoutMs ?? 60_000,
        env: { ...process.env, ...options.env },
      });
    },
  };
}

/** `file(line,column): error TScode: message` lines of `tsc --pretty false`, with their continuation lines. */
function parseDiagnostics(output: string): TypeDiagnostic[] {
  const diagnostics: TypeDiagnostic[] = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    const global = /^error (TS\d+): (.*)$/.exec(line);
    if (match) {
      const [, file, row, column, code, message] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      diagnostics.push({ file, line: Number(row), column: Number(column), code, message });
    } else if (global) {
      diagnostics.push({
        file: '',
        line: 0,
        column: 0,
        code: global[1] as string,
        message: global[2] as string,
      });
    } else if (line.trim() !== '' && diagnostics.length > 0) {
      (diagnostics.at(-1) as TypeDiagnostic).message += `\n${line}`;
    }
  }
  return diagnostics;
}
