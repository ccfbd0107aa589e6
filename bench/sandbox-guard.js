// node bench/sandbox-guard.js — what the git guard of issue 26 (read-only git metadata, pinned folders, the check
// after each call) adds to a sandboxed call. The shipped fs_read runs through the runner with no sandbox, with the
// bubblewrap sandbox of this build, and (when BEFORE_DIST names the dist/ folder of an earlier build) with that
// build's sandbox, in paired rounds whose order alternates, in two working directories that are git repositories:
// a small project (SMALL_FOLDERS folders) and a large one (LARGE_FOLDERS folders, as a project with node_modules).
// Run `npm run build` first. On a shared machine run it as `chrt -f 10 node bench/sandbox-guard.js` (root).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, printTable, quantile, round } from './lib/measure.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 40);
const SMALL_FOLDERS = Number(process.env.SMALL_FOLDERS ?? 300);
const LARGE_FOLDERS = Number(process.env.LARGE_FOLDERS ?? 20_000);
const AFTER_DIST = new URL('../dist/', import.meta.url).pathname;

async function load(dist) {
  const module = (path) => import(join(dist, path));
  return {
    createSandbox: (await module('runtime/sandbox/create-sandbox.js')).createSandbox,
    createNoSandbox: (await module('runtime/sandbox/no-sandbox.js')).createNoSandbox,
    defaultSandboxSettings: (await module('runtime/sandbox/sandbox-settings.js')).defaultSandboxSettings,
    runExecutorDetailed: (await module('runtime/executors/run-executor.js')).runExecutorDetailed,
    ensureShippedExecutors: (await module('runtime/executors/shipped-executors.js')).ensureShippedExecutors,
    loadCatalog: (await module('runtime/executors/load-catalog.js')).loadCatalog,
  };
}

/** A git repository with `folders` folders spread ten to a level, a file in each. */
function project(path, folders) {
  mkdirSync(path, { recursive: true });
  execFileSync('git', ['init', '-q', path]);
  writeFileSync(join(path, 'notes.txt'), 'a small file\n'.repeat(50));
  for (let index = 1; index < folders; index++) {
    const parts = [];
    for (let rest = index; rest > 0; rest = Math.floor(rest / 10)) parts.unshift(`d${rest % 10}`);
    mkdirSync(join(path, ...parts), { recursive: true });
  }
}

function spread(values) {
  return [round(median(values), 2), round(quantile(values, 0.95), 2)];
}

const root = mkdtempSync(join(tmpdir(), 'scratchpad-bench-guard-'));
try {
  const after = await load(AFTER_DIST);
  const before = process.env.BEFORE_DIST ? await load(process.env.BEFORE_DIST) : undefined;
  const home = join(root, 'home');
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
  };
  const installed = await after.ensureShippedExecutors({ env });
  const { executors } = await after.loadCatalog({
    dirs: [installed.executorsDir],
    trustedKeys: installed.trustedKeys,
  });
  const executor = executors.find((item) => item.name === 'fs_read');
  const scratchpadPaths = [join(home, '.config', 'scratchpad'), join(home, '.local', 'share', 'scratchpad')];
  console.log(
    `fs_read of a 650-byte file, ${PAIRS} alternated rounds, ${availableParallelism()} cores, load average ${round(loadavg()[0], 2)}`,
  );
  for (const [label, folders] of [
    ['small', SMALL_FOLDERS],
    ['large', LARGE_FOLDERS],
  ]) {
    const work = join(home, label);
    project(work, folders);
    const variants = {};
    const make = async (build) =>
      build.createSandbox({ settings: build.defaultSandboxSettings(), cwd: work, env, scratchpadPaths });
    variants.off = { build: after, sandbox: after.createNoSandbox() };
    if (before) variants.before = { build: before, sandbox: await make(before) };
    variants.after = { build: after, sandbox: await make(after) };
    const names = Object.keys(variants);
    const times = Object.fromEntries(names.map((name) => [name, []]));
    const call = (name) =>
      variants[name].build.runExecutorDetailed(
        executor,
        { path: 'notes.txt' },
        {
          sandbox: variants[name].sandbox,
          cwd: work,
          parentEnv: env,
        },
      );
    for (let warm = 0; warm < 3; warm++) for (const name of names) await call(name);
    for (let pair = 0; pair < PAIRS; pair++) {
      const order = pair % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        const started = performance.now();
        const run = await call(name);
        if (!run.outcome.ok) throw new Error(`${name}: ${run.outcome.error}`);
        times[name].push(performance.now() - started);
      }
    }
    const minus = (left, right) => times[left].map((value, index) => value - times[right][index]);
    const rows = [['no sandbox', ...spread(times.off)]];
    if (before) rows.push(['sandbox before', ...spread(times.before)]);
    rows.push(['sandbox after', ...spread(times.after)]);
    if (before) rows.push(['added by the sandbox before (paired)', ...spread(minus('before', 'off'))]);
    rows.push(['added by the sandbox after (paired)', ...spread(minus('after', 'off'))]);
    if (before) rows.push(['after minus before (paired)', ...spread(minus('after', 'before'))]);
    console.log(`\n${label} project: ${folders} folders, a git repository`);
    printTable(['ms per call', 'median', 'p95'], rows);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
