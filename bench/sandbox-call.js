// npm run bench:sandbox — what the sandbox adds to one real executor call: the shipped fs_read and a shell_exec of
// `true`, each run through the runner with the bubblewrap sandbox and without one, in paired, alternated rounds
// (the order inside a pair flips every round). Reports the median and p95 of each and of the paired difference.
// Process starts swell with whatever else runs; on a shared machine run it as `chrt -f 10 npm run bench:sandbox`.
// BENCH_SANDBOX_PAIRS sets the number of rounds (default 40).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCatalog } from '../packages/runtime/dist/executors/load-catalog.js';
import { runExecutorDetailed } from '../packages/runtime/dist/executors/run-executor.js';
import { ensureShippedExecutors } from '../packages/runtime/dist/executors/shipped-executors.js';
import { createSandbox } from '../packages/runtime/dist/sandbox/create-sandbox.js';
import { createNoSandbox } from '../packages/runtime/dist/sandbox/no-sandbox.js';
import { defaultSandboxSettings } from '../packages/runtime/dist/sandbox/sandbox-settings.js';
import { median, printTable, quantile, round } from './lib/measure.js';

const PAIRS = Number(process.env.BENCH_SANDBOX_PAIRS ?? 40);

const directory = mkdtempSync(join(tmpdir(), 'scratchpad-bench-sandbox-'));
try {
  const home = join(directory, 'home');
  const work = join(directory, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'notes.txt'), 'a line of notes\n'.repeat(40));
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
  };
  const installed = await ensureShippedExecutors({ env });
  const catalog = await loadCatalog({ dirs: [installed.executorsDir], trustedKeys: installed.trustedKeys });
  const byName = new Map(catalog.executors.map((executor) => [executor.name, executor]));
  const bubblewrap = await createSandbox({
    settings: defaultSandboxSettings(),
    cwd: work,
    env,
    scratchpadPaths: [join(home, '.config', 'scratchpad'), join(home, '.local', 'share', 'scratchpad')],
  });
  if (bubblewrap.status !== 'bubblewrap') throw new Error(`no sandbox here: ${bubblewrap.description}`);
  const off = createNoSandbox();
  const calls = [
    ['fs_read', { path: 'notes.txt' }],
    ['shell_exec', { command: 'true' }],
  ];
  console.log(
    `sandbox: ${bubblewrap.description}\n${PAIRS} alternated pairs per executor; load average ${round(loadavg()[0], 2)} on ${availableParallelism()} cores\n`,
  );
  const rows = [];
  const results = {};
  for (const [name, args] of calls) {
    const executor = byName.get(name);
    const once = async (sandbox) => {
      const started = performance.now();
      const run = await runExecutorDetailed(executor, args, { sandbox, cwd: work, parentEnv: env });
      if (!run.outcome.ok) throw new Error(`${name} failed: ${run.outcome.error}`);
      return performance.now() - started;
    };
    await once(off);
    await once(bubblewrap);
    const times = { off: [], bubblewrap: [], added: [] };
    for (let pair = 0; pair < PAIRS; pair++) {
      const first = pair % 2 === 0 ? 'off' : 'bubblewrap';
      const second = first === 'off' ? 'bubblewrap' : 'off';
      const a = await once(first === 'off' ? off : bubblewrap);
      const b = await once(second === 'off' ? off : bubblewrap);
      times[first].push(a);
      times[second].push(b);
      times.added.push(times.bubblewrap.at(-1) - times.off.at(-1));
    }
    const spread = (values) => [round(median(values), 1), round(quantile(values, 0.95), 1)];
    rows.push([`${name}, no sandbox`, ...spread(times.off)]);
    rows.push([`${name}, bubblewrap`, ...spread(times.bubblewrap)]);
    rows.push([`${name}, added by the sandbox (paired)`, ...spread(times.added)]);
    results[name] = {
      offMedianMs: round(median(times.off), 2),
      bubblewrapMedianMs: round(median(times.bubblewrap), 2),
      addedMedianMs: round(median(times.added), 2),
      addedP95Ms: round(quantile(times.added, 0.95), 2),
    };
  }
  printTable(['call', 'median ms', 'p95 ms'], rows);
  console.log(`\n${JSON.stringify({ pairs: PAIRS, results })}`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
