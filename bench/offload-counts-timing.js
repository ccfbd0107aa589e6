/**
 * Times one offload of a large log through the default policy (salient preview) with two builds of the library,
 * paired and alternated: `--before DIST` and `--after DIST` (default: this checkout's dist/). Each run offloads the
 * same text into a fresh in-memory store and reports wall time, CPU time (user + system of this process) and the
 * longest the event loop was kept busy (dist/testing/event-loop-probe.js). Used to measure what exact counts over
 * the whole output (the whole-text tally) cost an offload.
 *
 *   node bench/offload-counts-timing.js --before /path/to/old/dist [--after dist] [--sizes 10,100] [--runs 5]
 */
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { optionValue } from './lib/command-line.js';
import { logBuffer } from './lib/log-text.js';
import { median } from './lib/measure.js';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => optionValue(name, fallback, args);
const before = option('--before');
if (!before) {
  console.error('Pass --before DIST: the dist/ directory of the build to compare with.');
  process.exit(2);
}
const builds = {
  before: resolve(before),
  after: resolve(option('--after', join(root, 'dist'))),
};
const sizes = option('--sizes', '10,100').split(',').map(Number);
const runs = Number(option('--runs', '5'));

const load = async (dist) => ({
  library: await import(pathToFileURL(join(dist, 'index.js')).href),
  offload: await import(pathToFileURL(join(dist, 'context/offload/index.js')).href),
});
const loaded = { before: await load(builds.before), after: await load(builds.after) };
const { probeEventLoop } = await import(
  pathToFileURL(join(builds.after, 'testing/event-loop-probe.js')).href
);

async function offloadOnce(build, text) {
  const { library, offload } = loaded[build];
  const scratchpad = library.createScratchpad({ driver: library.createMemoryDriver() });
  try {
    const offloader = offload.createOffloader({
      session: scratchpad.session('timing'),
      policy: offload.createOffloadPolicy(),
    });
    const cpuStart = process.cpuUsage();
    const probe = await probeEventLoop(async () => {
      const started = performance.now();
      const outcome = await offloader.process({ tool: 'shell_exec', result: text });
      return { ms: performance.now() - started, preview: outcome.preview };
    });
    const cpu = process.cpuUsage(cpuStart);
    return {
      ms: probe.value.ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      busyMs: probe.worstBusyMs,
      first: probe.value.preview.split('\n')[0],
    };
  } finally {
    await scratchpad.close();
  }
}

console.log(
  `before: ${builds.before}\nafter:  ${builds.after}\n${runs} paired runs per size, order alternated\n`,
);
const rows = [];
for (const megabytes of sizes) {
  const text = logBuffer(megabytes * 1_000_000).toString('utf8');
  const results = { before: [], after: [] };
  // One unmeasured run of each first: module and JIT warm-up.
  for (const build of ['before', 'after']) await offloadOnce(build, text);
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    for (const build of order) results[build].push(await offloadOnce(build, text));
  }
  const summary = (list) => ({
    wallMs: Math.round(median(list.map((item) => item.ms))),
    cpuMs: Math.round(median(list.map((item) => item.cpuMs))),
    worstBusyMs: Math.round(Math.max(...list.map((item) => item.busyMs))),
  });
  const row = { megabytes, before: summary(results.before), after: summary(results.after) };
  rows.push(row);
  console.log(`${megabytes} MB log (${text.length.toLocaleString('en-US')} chars):`);
  for (const build of ['before', 'after']) {
    const s = row[build];
    console.log(
      `  ${build.padEnd(6)} median wall ${s.wallMs} ms, median CPU ${s.cpuMs} ms, worst event-loop busy ${s.worstBusyMs} ms`,
    );
    console.log(`         ${results[build][0].first.slice(0, 200)}`);
  }
}
console.log(`\n${JSON.stringify(rows)}`);
