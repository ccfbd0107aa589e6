import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers of docs/architecture.md, lowest first: a module may import its own folder and the folders below it,
 * never one above or beside it (`http/` imports only `core/`). The shells (`cli/` above `mcp/` and `ui/`) and
 * `testing/` sit on top; `index.ts` and `extension/` are entry points. The agent runtime is a package of its own
 * (`packages/runtime/`) and sees the library only through the library's entry points.
 */
const LAYERS: Record<string, number> = {
  core: 0,
  config: 1,
  stores: 1,
  service: 2,
  context: 3,
  tools: 4,
  http: 5,
  mcp: 6,
  ui: 6,
  cli: 7,
  testing: 8,
  extension: 8,
  'index.ts': 8,
};

/**
 * The one pair of modules allowed to name each other: the service and the view of it bound to one session, which
 * it hands out (`Scratchpad.session()`), and which names it back by type only (`SessionScratchpad.scratchpad`).
 */
const MUTUAL_PAIRS = [['service/scratchpad.ts', 'service/session-scratchpad.ts']];

const SRC = resolve(import.meta.dirname, '../src');
const RUNTIME_SRC = resolve(import.meta.dirname, '../packages/runtime/src');

/** Each module's specifiers, type-only and dynamic included. */
function specifiersOf(module: string): string[] {
  return ts
    .preProcessFile(readFileSync(module, 'utf8'), true, true)
    .importedFiles.map((file) => file.fileName);
}

/**
 * Every module of a package's `src/` (tests left out) with the modules of that `src/` it imports, type-only and
 * dynamic included.
 */
function importGraph(SRC: string): Map<string, string[]> {
  const modules: string[] = [];
  const visit = (folder: string) => {
    for (const item of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, item.name);
      if (item.isDirectory()) visit(path);
      else if (item.name.endsWith('.ts') && !item.name.endsWith('.test.ts')) modules.push(path);
    }
  };
  visit(SRC);
  const known = new Set(modules);
  const graph = new Map<string, string[]>();
  for (const module of modules) {
    const targets = specifiersOf(module)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(module), name).replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target));
    graph.set(relative(SRC, module), [...new Set(targets.map((target) => relative(SRC, target)))]);
  }
  return graph;
}

/** The strongly connected groups of more than one module (Tarjan), each sorted. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (module: string) => {
    index.set(module, counter);
    low.set(module, counter);
    counter++;
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(module, Math.min(low.get(module) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(module, Math.min(low.get(module) as number, index.get(target) as number));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== module);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) connect(module);
  return groups;
}

describe('imports', () => {
  const graph = importGraph(SRC);
  const runtimeGraph = importGraph(RUNTIME_SRC);

  it('form no cycle, type-only and dynamic imports included (one facade and its session view excepted)', () => {
    const allowed = new Set(MUTUAL_PAIRS.map((pair) => [...pair].sort().join(' ')));
    const cycles = importCycles(graph).filter((group) => !allowed.has(group.join(' ')));
    expect(cycles).toEqual([]);
    expect(importCycles(runtimeGraph)).toEqual([]);
  });

  it('from the runtime package reach the library only through its entry points, and nothing it does not declare', () => {
    const packageJson = (folder: string) =>
      JSON.parse(readFileSync(resolve(import.meta.dirname, '..', folder, 'package.json'), 'utf8'));
    const library = packageJson('.');
    const runtime = packageJson('packages/runtime');
    const entries = new Set(
      Object.keys(library.exports).map((subpath) => `${library.name}${subpath.slice(1)}`),
    );
    const declared = new Set(Object.keys(runtime.dependencies));
    const stray: string[] = [];
    for (const module of runtimeGraph.keys()) {
      for (const specifier of specifiersOf(join(RUNTIME_SRC, module))) {
        if (specifier.startsWith('node:')) continue;
        if (specifier.startsWith('.')) {
          if (relative(RUNTIME_SRC, resolve(dirname(join(RUNTIME_SRC, module)), specifier)).startsWith('..'))
            stray.push(`${module} -> ${specifier} (outside the runtime package)`);
          continue;
        }
        const name = specifier.startsWith('@')
          ? specifier.split('/').slice(0, 2).join('/')
          : specifier.split('/')[0];
        if (name === library.name ? !entries.has(specifier) : !declared.has(name as string))
          stray.push(`${module} -> ${specifier}`);
      }
    }
    expect(stray).toEqual([]);
    expect(runtimeGraph.size).toBeGreaterThan(150);
  });

  it('point only down the layers of docs/architecture.md', () => {
    const upward: string[] = [];
    for (const [module, targets] of graph) {
      const layer = module.split('/')[0] as string;
      for (const target of targets) {
        const targetLayer = target.split('/')[0] as string;
        if (targetLayer === layer) continue;
        const rank = LAYERS[layer];
        const targetRank = LAYERS[targetLayer];
        if (rank === undefined || targetRank === undefined) {
          upward.push(`${module} -> ${target} (a folder docs/architecture.md does not place)`);
        } else if (targetRank >= rank || (layer === 'http' && targetLayer !== 'core')) {
          upward.push(`${module} -> ${target}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it('are read from the source: the graph has the modules and the edges it should', () => {
    expect(graph.get('cli/commands/mcp-command.ts')).toContain('mcp/mcp-server.ts');
    expect(graph.get('service/session-scratchpad.ts')).toContain('service/scratchpad.ts');
    expect(graph.size).toBeGreaterThan(300);
  });
});
