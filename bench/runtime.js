// npm run bench:runtime — runtime overhead per step of the seed 002 planner with a zero-latency in-process model
// over a catalog of 300 executors (pre-filter included), and the pre-filter alone at 300 and 3,000 executors.
// Executors run in-process and return at once, so the figures exclude executor run time by construction.
// Then the cost of isolating a real executor call (issue 7): the shipped fs_read run through the runner with the
// bubblewrap sandbox and without it, in paired, alternated repetitions. Wall times of process starts swell with
// whatever else runs; on a shared machine run it as `chrt -f 10 npm run bench:runtime` (real-time priority, root).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createScratchpad } from '../dist/service/scratchpad.js';
import { createSqliteDriver } from '../dist/stores/sqlite/index.js';
import { loadCatalog } from '../packages/runtime/dist/executors/load-catalog.js';
import { runExecutorDetailed } from '../packages/runtime/dist/executors/run-executor.js';
import { ensureShippedExecutors } from '../packages/runtime/dist/executors/shipped-executors.js';
import { stageExecutor } from '../packages/runtime/dist/executors/stage-executor.js';
import { runTurn } from '../packages/runtime/dist/planner/run-turn.js';
import { createPrefilter } from '../packages/runtime/dist/prefilter/prefilter.js';
import { createSandbox } from '../packages/runtime/dist/sandbox/create-sandbox.js';
import { createNoSandbox } from '../packages/runtime/dist/sandbox/no-sandbox.js';
import { defaultSandboxSettings } from '../packages/runtime/dist/sandbox/sandbox-settings.js';
import { createVaglio } from '../packages/runtime/dist/vaglio/vaglio.js';
import { median, printTable, quantile, round } from './lib/measure.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const SANDBOX_PAIRS = Number(process.env.BENCH_SANDBOX_PAIRS ?? 60);
const STEPS = 4;
const VERBS = [
  'read',
  'write',
  'list',
  'fetch',
  'search',
  'convert',
  'resize',
  'send',
  'parse',
  'count',
  'sort',
  'merge',
];
const NOUNS = [
  'file',
  'image',
  'mail',
  'calendar',
  'note',
  'page',
  'invoice',
  'photo',
  'song',
  'table',
  'log',
  'report',
  'ticket',
  'contact',
  'archive',
  'feed',
  'metric',
  'backup',
  'repo',
  'task',
  'chart',
  'video',
  'map',
  'quote',
  'recipe',
];

/** `count` synthetic executors shaped like real manifests (name, description, affinity, capabilities, schema). */
function catalog(count) {
  return Array.from({ length: count }, (_, index) => {
    const verb = VERBS[index % VERBS.length];
    const noun = NOUNS[Math.floor(index / VERBS.length) % NOUNS.length];
    const name = `${verb}_${noun}_${index}`;
    const args = {
      type: 'object',
      properties: {
        path: { type: 'string', description: `The ${noun} to ${verb}` },
        limit: { type: 'integer', minimum: 1 },
      },
      required: ['path'],
      additionalProperties: false,
    };
    return {
      name,
      version: '1.0.0',
      description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun} and return the result as text, with metadata about the ${noun}.`,
      affinity: [verb, noun, `${noun}s`, 'local', index % 7 === 0 ? 'cloud' : 'disk'],
      capabilities: [index % 5 === 0 ? 'net:http' : 'fs:read'],
      args,
      entry: ['node', './index.mjs'],
      limits: {},
      dir: `/virtual/${name}`,
      keyId: 'bench',
      codeDigest: 'sha256:bench',
      manifest: {},
    };
  });
}

function queries(executors) {
  return Array.from({ length: 64 }, (_, index) => {
    const executor = executors[(index * 37) % executors.length];
    const [verb, noun] = executor.name.split('_');
    return `please ${verb} the ${noun} called report-${index}.txt and tell me what is in it`;
  });
}

async function stepOverhead(executors, directory, turnCount = TURNS) {
  const scratchpad = createScratchpad({
    driver: createSqliteDriver({ path: join(directory, 'runtime.db') }),
  });
  const vaglio = createVaglio({ logDir: join(directory, 'vaglio'), env: {} });
  const prefilter = createPrefilter(executors);
  const setup = [];
  const steps = [];
  const turns = [];
  const questions = queries(executors);
  const execute = async () => ({
    outcome: { ok: true, content: 'done: 12 lines', metadata: { bytes: 14 } },
    exitCode: 0,
    exitSignal: null,
    timedOut: false,
    outputCapped: false,
    aborted: false,
    durationMs: 0,
    stderr: '',
  });
  mkdirSync(directory, { recursive: true });
  for (let turn = 0; turn < turnCount; turn++) {
    const query = questions[turn % questions.length];
    const marks = [];
    // A zero-latency model that answers in place: no copying of the request, so only the runtime is measured.
    const model = {
      specificationVersion: 'v1',
      provider: 'bench',
      modelId: 'zero-latency',
      async doGenerate(options) {
        const step = marks.length;
        marks.push(performance.now());
        const usage = { inputTokens: 0, outputTokens: 0 };
        if (step === STEPS) return { text: 'All done.', toolCalls: [], finishReason: 'stop', usage };
        // A different candidate each step (the cap on one executor is 2).
        const tool = options.tools[step % options.tools.length].name;
        const call = {
          id: `call_${step}`,
          name: tool,
          arguments: { path: `/data/item-${turn}-${step}.txt` },
        };
        return { text: '', toolCalls: [call], finishReason: 'tool-calls', usage };
      },
    };
    const started = performance.now();
    const result = await runTurn({
      query,
      model,
      executors,
      prefilter,
      scratchpad,
      vaglio,
      execute,
      turnLogDir: join(directory, 'turns'),
      env: {},
    });
    const ended = performance.now();
    if (result.finalKind !== 'answer')
      throw new Error(`turn ended with ${result.finalKind}: ${result.finalMessage}`);
    setup.push(marks[0] - started);
    for (let index = 1; index < marks.length; index++) steps.push(marks[index] - marks[index - 1]);
    turns.push(ended - started);
  }
  await scratchpad.close();
  return { setup, steps, turns };
}

function prefilterTimes(size) {
  const executors = catalog(size);
  const built = performance.now();
  const prefilter = createPrefilter(executors);
  const buildMs = performance.now() - built;
  const times = [];
  const questions = queries(executors);
  for (let round = 0; round < 20; round++) {
    for (const query of questions) {
      const started = performance.now();
      prefilter.select(query);
      times.push(performance.now() - started);
    }
  }
  return { size, buildMs, median: median(times), p95: quantile(times, 0.95) };
}

/**
 * One real fs_read call through the runner with bubblewrap and without a sandbox (paired, alternated), and the two
 * parts of a call measured alone: staging the verified copy (read, hash, write, remove) and planning the sandbox.
 */
async function sandboxOverhead(directory) {
  const home = join(directory, 'sandbox-home');
  const work = join(home, 'work');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'notes.txt'), 'a small file\n'.repeat(50));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
  };
  const installed = await ensureShippedExecutors({ env });
  const { executors } = await loadCatalog({
    dirs: [installed.executorsDir],
    trustedKeys: installed.trustedKeys,
  });
  const executor = executors.find((item) => item.name === 'fs_read');
  const bubblewrap = await createSandbox({
    settings: defaultSandboxSettings(),
    cwd: work,
    env,
    scratchpadPaths: [join(home, '.config', 'scratchpad'), join(home, '.local', 'share', 'scratchpad')],
  });
  if (bubblewrap.status !== 'bubblewrap') throw new Error(`no sandbox here: ${bubblewrap.description}`);
  const off = createNoSandbox();
  const args = { path: 'notes.txt' };
  const variants = {
    off: () => runExecutorDetailed(executor, args, { sandbox: off, cwd: work, parentEnv: env }),
    bubblewrap: () => runExecutorDetailed(executor, args, { sandbox: bubblewrap, cwd: work, parentEnv: env }),
  };
  const names = Object.keys(variants);
  const times = { off: [], bubblewrap: [] };
  for (let warm = 0; warm < 5; warm++) for (const name of names) await variants[name]();
  for (let pair = 0; pair < SANDBOX_PAIRS; pair++) {
    // Alternate the order in each round so drift on a shared machine hits every variant alike.
    const order = pair % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const started = performance.now();
      const result = await variants[name]();
      const outcome = result.outcome ?? result;
      if (!outcome.ok) throw new Error(`${name}: ${outcome.error}`);
      times[name].push(performance.now() - started);
    }
  }
  const added = times.bubblewrap.map((value, index) => value - times.off[index]);
  // Wall times grow with whatever else runs on the machine: say how busy it was.
  const load = loadavg()[0];
  const staging = [];
  const planning = [];
  for (let round = 0; round < SANDBOX_PAIRS; round++) {
    const started = performance.now();
    const staged = await stageExecutor(executor);
    const planned = performance.now();
    await bubblewrap.plan({
      name: executor.name,
      capabilities: executor.capabilities,
      entry: executor.entry,
      stagingDir: staged.stagingDir,
      codeDir: staged.codeDir,
      cwd: work,
      env: { PATH: env.PATH, HOME: home },
    });
    planning.push(performance.now() - planned);
    await rm(staged.stagingDir, { recursive: true, force: true });
    staging.push(planned - started);
  }
  return { times, added, staging, planning, load, description: bubblewrap.description };
}

function spread(values) {
  return [round(median(values)), round(quantile(values, 0.95))];
}

function summarize(values) {
  return { median: median(values), p95: quantile(values, 0.95) };
}

const directory = mkdtempSync(join(tmpdir(), 'scratchpad-bench-runtime-'));
try {
  // One catalog, loaded once, as a long-running runtime has it; warm up the JIT on a short run, then measure.
  const executors = catalog(300);
  await stepOverhead(executors, join(directory, 'warm'), 20);
  const measured = await stepOverhead(executors, directory);
  const filters = [prefilterTimes(300), prefilterTimes(3000)];
  const isolation = await sandboxOverhead(directory);
  console.log(
    `\nRuntime overhead, ${TURNS} turns × ${STEPS} steps, 300 executors, SQLite store, vaglio log on (executor time excluded)`,
  );
  printTable(
    ['measure', 'median ms', 'p95 ms', 'target'],
    [
      [
        'per step (model → tool → observation → model)',
        round(median(measured.steps)),
        round(quantile(measured.steps, 0.95)),
        'median < 1 ms',
      ],
      [
        'turn setup (gc + pre-filter + first call)',
        round(median(measured.setup)),
        round(quantile(measured.setup, 0.95)),
        '',
      ],
      [
        'whole turn (4 steps + answer + turn log)',
        round(median(measured.turns)),
        round(quantile(measured.turns, 0.95)),
        '',
      ],
      ...filters.map((item) => [
        `pre-filter select, ${item.size} executors`,
        round(item.median, 4),
        round(item.p95, 4),
        'sub-millisecond',
      ]),
    ],
  );
  for (const item of filters)
    console.log(
      `pre-filter index build, ${item.size} executors: ${round(item.buildMs)} ms (once per catalog)`,
    );
  const pass = median(measured.steps) < 1;
  console.log(
    `\nper-step median ${round(median(measured.steps))} ms: ${pass ? 'PASS' : 'FAIL'} (target < 1 ms)`,
  );
  console.log(
    `\nOne real executor call (fs_read of a 650-byte file), ${SANDBOX_PAIRS} alternated rounds, load average ${round(isolation.load, 2)} on ${availableParallelism()} cores; sandbox: ${isolation.description}`,
  );
  printTable(
    ['variant', 'median ms', 'p95 ms'],
    [
      ['runner, --no-sandbox (verified private copy, scrubbed env)', ...spread(isolation.times.off)],
      ['runner, bubblewrap sandbox', ...spread(isolation.times.bubblewrap)],
      ['added by the sandbox (paired difference)', ...spread(isolation.added)],
      ['  of which planning the bubblewrap command line (alone)', ...spread(isolation.planning)],
      ['staging the verified copy, without the spawn (alone)', ...spread(isolation.staging)],
    ],
  );
  const sandboxPass = median(isolation.added) < 15;
  console.log(
    `sandbox overhead per call, median ${round(median(isolation.added))} ms: ${sandboxPass ? 'PASS' : 'FAIL'} (target < 15 ms)`,
  );
  const results = join(process.cwd(), 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(
    join(results, 'runtime.json'),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        turns: TURNS,
        stepsPerTurn: STEPS,
        executors: 300,
        stepMs: { median: median(measured.steps), p95: quantile(measured.steps, 0.95) },
        setupMs: { median: median(measured.setup), p95: quantile(measured.setup, 0.95) },
        turnMs: { median: median(measured.turns), p95: quantile(measured.turns, 0.95) },
        prefilter: filters,
        pass,
        sandbox: {
          pairs: SANDBOX_PAIRS,
          loadAverage: isolation.load,
          cores: availableParallelism(),
          description: isolation.description,
          noSandboxMs: summarize(isolation.times.off),
          bubblewrapMs: summarize(isolation.times.bubblewrap),
          addedBySandboxMs: summarize(isolation.added),
          planMs: summarize(isolation.planning),
          stagingMs: summarize(isolation.staging),
          pass: sandboxPass,
        },
      },
      null,
      2,
    )}\n`,
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
