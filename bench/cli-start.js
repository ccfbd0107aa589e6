/**
 * CLI start-up benchmark: `npm run bench:cli-start` (builds dist/ first).
 *
 * Wall time of one whole process, from spawn to exit, for `scratchpad read NAME --head 10` (a 1,000-line log entry
 * in a throwaway SQLite store), `scratchpad --help` and `scratchpad --version`, each against `node -e 0` (the floor:
 * a Node process that does nothing). Paired and alternated: each round runs `node -e 0` and the command back to
 * back, the baseline first in even rounds and second in odd ones, so a machine that slows down or speeds up during
 * the run weighs on both sides alike. The target is the median of the per-pair ratios of wall time, ≤ 1.5×. Each
 * process also reports the CPU time it used (bench/lib/cpu-at-exit.cjs, preloaded on both sides), a figure that
 * other load on the machine moves less than wall time.
 * Options: --pairs N (default 20), --json PATH (default bench/results/cli-start.json).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { optionValue, requireBuilt } from './lib/command-line.js';
import { median, printTable, round } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist', 'cli', 'main.js');
const cpuAtExit = join(here, 'lib', 'cpu-at-exit.cjs');
const TARGET_RATIO = 1.5;
const ENTRY = 'bench-log';

/** Runs `node ...args` to exit; returns its wall and CPU time in milliseconds (throws when it fails). */
function timeProcess(args, env, input) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['-r', cpuAtExit, ...args], {
    env,
    input,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const ms = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.toString('utf8')}`);
  }
  return { ms, cpuMs: Number(result.output[3].toString('utf8')) };
}

/** A 1,000-line log, the kind of entry `read --head` peeks at. */
function logText() {
  const lines = [];
  for (let line = 1; line <= 1000; line++) {
    lines.push(
      `2026-11-24T12:00:00Z INFO request ${String(line).padStart(6, '0')} served in ${line % 97} ms`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Measures each command against `node -e 0` over `pairs` alternated pairs; returns one figure per command.
 * `home` holds the store and stands in for HOME and the XDG folders, so no user config is read.
 */
export function measureCliStart(options = {}) {
  const pairs = options.pairs ?? 20;
  const home = mkdtempSync(join(tmpdir(), 'scratchpad-cli-start-'));
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
    };
    const store = ['--store', `sqlite:${join(home, 'store.db')}`];
    timeProcess([cli, ...store, 'write', ENTRY], env, logText());
    const commands = [
      { name: `read ${ENTRY} --head 10`, args: [cli, ...store, 'read', ENTRY, '--head', '10'] },
      { name: '--help', args: [cli, '--help'] },
      { name: '--version', args: [cli, '--version'] },
    ];
    const baseline = ['-e', '0'];
    // One unmeasured run of each warms the file cache.
    timeProcess(baseline, env);
    for (const command of commands) timeProcess(command.args, env);
    const samples = commands.map(() => ({ baseline: [], command: [] }));
    for (let round = 0; round < pairs; round++) {
      commands.forEach((command, index) => {
        const sample = samples[index];
        if (round % 2 === 0) {
          sample.baseline.push(timeProcess(baseline, env));
          sample.command.push(timeProcess(command.args, env));
        } else {
          sample.command.push(timeProcess(command.args, env));
          sample.baseline.push(timeProcess(baseline, env));
        }
      });
    }
    return commands.map((command, index) => {
      const { baseline: base, command: runs } = samples[index];
      const pairRatio = (field) => median(runs.map((run, pair) => run[field] / base[pair][field]));
      const ratio = pairRatio('ms');
      return {
        command: `scratchpad ${command.name}`,
        pairs,
        baselineMedianMs: round(median(base.map((run) => run.ms)), 1),
        commandMedianMs: round(median(runs.map((run) => run.ms)), 1),
        medianPairRatio: round(ratio, 2),
        baselineMedianCpuMs: round(median(base.map((run) => run.cpuMs)), 1),
        commandMedianCpuMs: round(median(runs.map((run) => run.cpuMs)), 1),
        medianPairCpuRatio: round(pairRatio('cpuMs'), 2),
        withinTarget: ratio <= TARGET_RATIO,
      };
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Prints {@link measureCliStart}'s figures as a table. */
export function printCliStart(figures) {
  printTable(
    [
      'command',
      'node -e 0',
      'command',
      'ratio (median pair)',
      'target',
      'CPU: node -e 0',
      'command',
      'ratio',
    ],
    figures.map((figure) => [
      figure.command,
      `${figure.baselineMedianMs} ms`,
      `${figure.commandMedianMs} ms`,
      `${figure.medianPairRatio}×`,
      `≤ ${TARGET_RATIO}× ${figure.withinTarget ? '✓' : '✗'}`,
      `${figure.baselineMedianCpuMs} ms`,
      `${figure.commandMedianCpuMs} ms`,
      `${figure.medianPairCpuRatio}×`,
    ]),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  requireBuilt('bench:cli-start');
  const pairs = Number(optionValue('--pairs', '20'));
  if (!Number.isInteger(pairs) || pairs < 1)
    throw new Error(`--pairs takes a positive integer, got ${pairs}`);
  const figures = measureCliStart({ pairs });
  printCliStart(figures);
  const output = optionValue('--json', join(here, 'results', 'cli-start.json'));
  await mkdir(dirname(output), { recursive: true });
  await writeFile(
    output,
    `${JSON.stringify({ startedAt: new Date().toISOString(), node: process.version, loadAverage: loadavg(), figures }, null, 2)}\n`,
  );
  console.error(`· wrote ${output}`);
}
