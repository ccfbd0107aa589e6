/**
 * `npm run bench:context`: replays the SWE-agent dev trajectories through each offload policy with a real store
 * and prints, per policy, the cumulative context as a ratio to keeping everything inline and what became of the
 * facts the agent used later (visible at their step, hidden but retrievable from the store, lost). Also split in
 * halves (A = even trajectories, used to tune; B = odd ones) to check that the numbers hold on data not tuned on.
 * Writes bench/results/context.json. Runs on the built dist/ (`npx tsc -p tsconfig.build.json`).
 *
 *   node bench/context.js [--data PATH] [--only KEY,KEY] [--sweep]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createOffloader, createOffloadPolicy } from '../dist/context/offload/index.js';
import { createMemoryDriver, createScratchpad, loadTokenizer } from '../dist/index.js';
import { optionValue } from './lib/command-line.js';
import { codexTruncate } from './lib/context-codex.js';
import { replayCompacted } from './lib/context-masking.js';
import { replay, score, stepsOf } from './lib/context-replay.js';
import { PRICED_MODEL, promptCacheCost } from './lib/prompt-cache-cost.js';
import { scriptedSummarizer } from './lib/scripted-summarizer.js';
import { textTable } from './lib/text-table.js';
import { tokenEstimateError } from './lib/token-estimate-error.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => optionValue(name, fallback, args);
const dataPath = option('--data', '/work/shared/data/trajectories/swe-agent-dev.jsonl.gz');
const only = option('--only', '').split(',').filter(Boolean);

/** The policies compared: the seeds', deepagents', ours, and Codex-style truncation (nothing stored). */
const POLICIES = [
  { key: 'seed-000', label: 'seed 000: JSON > 4,096 B, head 500 + tail 500', policy: { format: 'metnos' } },
  { key: 'seed-004', label: 'seed 004: > 30,000 chars, first 2,000 B', policy: { format: 'named' } },
  {
    key: 'deepagents',
    label: 'deepagents: > 80,000 chars, first/last 5 lines',
    policy: {
      format: 'default',
      threshold: 80_000,
      measure: 'chars',
      minSavings: 0,
      preview: 'first-last-lines',
    },
  },
  {
    key: 'lines-1k',
    label: 'first/last 5 lines at our threshold (> 768 B)',
    policy: { format: 'default', preview: 'first-last-lines' },
  },
  { key: 'salient', label: 'salient (ours): > 768 B, saves >= 50%', policy: { format: 'default' } },
  {
    key: 'salient-4k',
    label: "salient at seed 000's threshold (> 4,096 B)",
    policy: { format: 'default', threshold: 4096 },
  },
  {
    key: 'salient-masked',
    label: 'salient, full at its own step, stub after (*)',
    policy: { format: 'default', minSavings: 0 },
    masked: true,
  },
  {
    key: 'salient-tokens',
    label: 'salient > 192 o200k tokens (token-exact threshold), saves >= 50%',
    policy: { format: 'default', measure: 'tokens', tokenizer: 'o200k', threshold: 192 },
  },
  {
    key: 'salient-tokens-cl100k',
    label: 'salient > 192 cl100k tokens (token-exact threshold), saves >= 50%',
    policy: { format: 'default', measure: 'tokens', tokenizer: 'cl100k', threshold: 192 },
  },
  {
    key: 'summary',
    label: 'salient, model summary for 50 KB-1 MB (scripted summarizer)',
    policy: { format: 'default', summarize: { summarizer: scriptedSummarizer } },
  },
  {
    key: 'stub-after',
    label: 'full at its own step, stub after (compactMessages, batches >= 4,096 tokens)',
    compact: { keepRecent: 1, clearAtLeast: 4096 },
  },
  {
    key: 'stub-after-1k',
    label: 'full at its own step, stub after (compactMessages, batches >= 1,024 tokens)',
    compact: { keepRecent: 1, clearAtLeast: 1024 },
  },
  {
    key: 'stub-after-every',
    label: 'full at its own step, stub after (compactMessages, every step)',
    compact: { keepRecent: 1, clearAtLeast: 0 },
  },
  {
    key: 'stub-after-default',
    label: 'full at its own step, stub after (compactMessages default: breakEven 12.5) (default)',
    compact: { keepRecent: 1 },
    isDefault: true,
  },
  ...[10, 11.5, 15, 20].map((breakEven) => ({
    key: `stub-after-break-even-${breakEven}`,
    label: `full at its own step, stub after (compactMessages, breakEven ${breakEven})`,
    compact: { keepRecent: 1, breakEven },
  })),
  ...[1.5, 2, 2.5, 3].map((carriedRatio) => ({
    key: `stub-after-carried-${carriedRatio}`,
    label: `full at its own step, stub after (compactMessages, carriedRatio ${carriedRatio})`,
    compact: { keepRecent: 1, carriedRatio },
  })),
  {
    key: 'stub-after-8k',
    label: 'full at its own step, stub after (compactMessages, batches >= 8,192 tokens)',
    compact: { keepRecent: 1, clearAtLeast: 8192 },
  },
  {
    key: 'salient-stub-after',
    label: 'salient at its own step, stub after (compactMessages, batches >= 4,096 tokens)',
    policy: { format: 'default' },
    compact: { keepRecent: 1, clearAtLeast: 4096 },
  },
  {
    key: 'codex',
    label: 'Codex-style: 10 KiB head + tail, nothing stored',
    truncate: (text) => codexTruncate(text),
  },
].filter((entry) => only.length === 0 || only.includes(entry.key));

const trajectories = gunzipSync(readFileSync(dataPath))
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim().length > 0)
  .map((line) => JSON.parse(line));
const stepCount = trajectories.reduce((sum, trajectory) => sum + trajectory.steps.length, 0);

const { scratchpad, storeLabel, cleanup } = await openStore();
console.log(`store: ${storeLabel}`);
console.log(`data: ${dataPath} (${trajectories.length} trajectories, ${stepCount} steps)\n`);

const results = [];
for (const entry of POLICIES) results.push(await runPolicy(entry));
printTable(results);

// Sensitivity of our two parameters (threshold, minSavings), reported per half: A is where they were chosen, B is not.
const sweep = [];
if (args.includes('--sweep')) {
  for (const threshold of [512, 768, 1024, 2048, 4096]) {
    for (const minSavings of [0, 0.5]) {
      const result = await runPolicy({
        key: `sweep-${threshold}-${minSavings}`,
        label: `salient > ${threshold} B, minSavings ${minSavings}`,
        policy: { format: 'default', threshold, minSavings },
      });
      sweep.push({ threshold, minSavings, all: result.all, halfA: result.halfA, halfB: result.halfB });
    }
  }
  console.log('\nsweep (salient):  threshold  minSavings  | A: context  visible  | B: context  visible');
  for (const row of sweep) {
    const cells = [row.halfA, row.halfB].map(
      (half) => `| ${half.contextRatio.toFixed(3)}  ${(half.visibleShare * 100).toFixed(1)}%`,
    );
    console.log(
      `                  ${String(row.threshold).padStart(9)}  ${String(row.minSavings).padStart(10)}  ${cells.join('  ')}`,
    );
  }
}

// The 4-characters-per-token estimate against exact counts, on every observation and task of the data.
const tokenTexts = trajectories.flatMap((trajectory) => [
  trajectory.task,
  ...trajectory.steps.map((step) => step.observation ?? '').filter((text) => text.length > 0),
]);
const tokenError = tokenEstimateError(
  tokenTexts,
  [await loadTokenizer('o200k'), await loadTokenizer('cl100k')],
  192,
);
console.log(
  `\n4-characters-per-token estimate vs exact counts (${tokenTexts.length} observations and tasks; error = estimate / exact - 1):`,
);
for (const line of textTable(
  [
    'tokenizer',
    'estimate',
    'total error',
    'median |error|',
    'p90 |error|',
    'max |error|',
    'under',
    '> 20% off',
    'other side of 192',
  ],
  tokenError.map((row) => [
    row.tokenizer,
    row.estimate,
    `${(row.totalError * 100).toFixed(1)}%`,
    `${(row.medianAbsError * 100).toFixed(1)}%`,
    `${(row.p90AbsError * 100).toFixed(1)}%`,
    `${(row.maxAbsError * 100).toFixed(1)}%`,
    `${(row.underestimatedShare * 100).toFixed(1)}%`,
    `${(row.over20PercentShare * 100).toFixed(1)}%`,
    String(row.flippedAtThreshold),
  ]),
)) {
  console.log(line);
}

const stats = await scratchpad.stats();
const output = {
  generatedAt: new Date().toISOString(),
  command: 'npm run bench:context',
  store: storeLabel,
  data: { path: dataPath, trajectories: trajectories.length, steps: stepCount },
  definitions: {
    cumulativeContext:
      'sum over steps of the characters the context holds at that step (task + every action and thought + every observation as shown so far), divided by the same sum with every observation inline',
    fact: 'identifier [A-Za-z_][A-Za-z0-9_.]{7,} (trailing dots stripped) that first appears in observation i and appears again in a later action, thought or the final patch; contained = bounded by characters outside [A-Za-z0-9_]',
    visible: 'the fact is contained in what the model was shown at step i',
    retrievable: "not visible, but the store's grep finds it in the entry that holds observation i",
    rewrites:
      'requests per trajectory in which a message already sent had changed (each one misses the prompt cache from that message on): an observation shown whole and replaced later, or a compactMessages batch',
    compactMessages:
      'rows with `compact`: the replay is an OpenAI chat conversation compacted by compactMessages before every request (keepRecent 1 = the newest result whole); context counts the tool messages as they stand in each request',
    lost: 'neither visible nor in the store',
    cachedCostRatio:
      'input cost with prompt caching over the same for all inline: each request reads from the cache the messages it shares from the start with the one before (0.1x the uncached price) and writes the rest (1.25x); tokens = chars / 4',
    pricedModel:
      'Claude Sonnet 4.5: $3 per million input tokens, cache reads $0.30, cache writes $3.75 (dollarsPerTrajectory)',
    paretoFront:
      'among rows with 100% visible and 0 lost: those no other row matches or beats on context, rewrites and cached cost at once',
    halves: 'A = trajectories with an even index (tuning half), B = odd index (held out)',
  },
  storeTotals: stats,
  policies: results,
  tokenEstimateError: tokenError,
  ...(sweep.length > 0 ? { sweep } : {}),
};
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/context.json'), `${JSON.stringify(output, null, 2)}\n`);
console.log('\nwrote bench/results/context.json');
await cleanup();

/** Replays every trajectory through one policy (a fresh session per trajectory) and scores it. */
async function runPolicy(entry) {
  const started = performance.now();
  const perTrajectory = [];
  let offloaded = 0;
  const stats = { summaries: 0 };
  let shownChars = 0;
  for (const [index, trajectory] of trajectories.entries()) {
    const session = scratchpad.session(`${entry.key}-${index}`);
    if (entry.compact) {
      const observe = entry.policy
        ? offloading(session, createOffloadPolicy(entry.policy), false)
        : async ({ observation }) => ({ text: observation, entry: null });
      const run = await replayCompacted(trajectory, stepsOf(trajectory), {
        session,
        observe,
        compact: entry.compact,
      });
      offloaded += run.entries.filter((item) => item !== null).length;
      shownChars += run.shown.reduce((sum, text) => sum + text.length, 0);
      const scored = await score(trajectory, { ...run, kept: run.shown }, session);
      const cumulative = run.contextChars.reduce((sum, chars) => sum + chars, 0);
      perTrajectory.push({
        index,
        ...scored,
        cumulative,
        rewrites: run.rewrites,
        ...costs(trajectory, run.requests),
      });
      continue;
    }
    const show = entry.truncate
      ? truncating(entry.truncate)
      : offloading(session, createOffloadPolicy(entry.policy), entry.masked === true, stats);
    const run = await replay(trajectory.task, stepsOf(trajectory), show);
    offloaded += run.entries.filter((item) => item !== null).length;
    shownChars += run.shown.reduce((sum, text) => sum + text.length, 0);
    const rewrites = run.kept.filter((kept, step) => kept !== run.shown[step]).length;
    const requests = requestsOf(trajectory, run.shown, run.kept);
    perTrajectory.push({
      index,
      ...(await score(trajectory, run, session)),
      rewrites,
      ...costs(trajectory, requests),
    });
  }
  const seconds = (performance.now() - started) / 1000;
  console.error(`  ${entry.key}: ${seconds.toFixed(1)} s`);
  return {
    key: entry.key,
    label: entry.label,
    ...(entry.isDefault ? { isDefault: true } : {}),
    policy: entry.policy ?? (entry.compact ? 'raw' : 'truncate'),
    ...(entry.compact ? { compact: entry.compact } : {}),
    ...(entry.masked ? { masked: true } : {}),
    offloaded,
    ...(entry.policy?.summarize ? { summarized: stats.summaries } : {}),
    shownChars,
    seconds: Number(seconds.toFixed(2)),
    all: aggregate(perTrajectory),
    halfA: aggregate(perTrajectory.filter((item) => item.index % 2 === 0)),
    halfB: aggregate(perTrajectory.filter((item) => item.index % 2 === 1)),
    lostExamples: perTrajectory
      .flatMap((item) => item.lostExamples.map((example) => ({ trajectory: item.index, ...example })))
      .slice(0, 5),
  };
}

/** Shows each observation through the offloader; `masked` shows it whole at its own step and keeps only the stub. */
function offloading(session, policy, masked, stats = {}) {
  const offloader = createOffloader({ session, policy });
  let step = 0;
  return async ({ tool, observation, context }) => {
    step++;
    const outcome = await offloader.process({ tool, result: observation, turn: 'replay', step, context });
    if (!outcome.offloaded) return { text: outcome.text, entry: null };
    if (outcome.summary && outcome.summary.source !== 'fallback')
      stats.summaries = (stats.summaries ?? 0) + 1;
    return masked
      ? { text: observation, later: outcome.text, entry: outcome.entry }
      : { text: outcome.text, entry: outcome.entry };
  };
}

/** The message texts of each request of a replay: task, then per step the thought + action and the observation. */
function requestsOf(trajectory, shown, kept) {
  const requests = [];
  const history = [trajectory.task];
  for (let index = 0; index < shown.length; index++) {
    const step = trajectory.steps[index];
    const own = (step.thought ?? '') + (step.action ?? '');
    requests.push([...history, own, shown[index]]);
    history.push(own, kept[index]);
  }
  return requests;
}

/** Prompt-cached input cost of a replay and of the same trajectory kept all inline (units of uncached tokens). */
function costs(trajectory, requests) {
  const inline = trajectory.steps.map((step) => step.observation ?? '');
  return {
    cost: promptCacheCost(requests),
    costInline: promptCacheCost(requestsOf(trajectory, inline, inline)),
  };
}

function truncating(truncate) {
  return async ({ observation }) => ({ text: truncate(observation), entry: null });
}

function aggregate(items) {
  const sum = (key) => items.reduce((total, item) => total + item[key], 0);
  const facts = sum('facts');
  return {
    trajectories: items.length,
    contextRatio: round(sum('cumulative') / sum('cumulativeInline')),
    cachedCostRatio: round(sum('cost') / sum('costInline')),
    dollarsPerTrajectory: round((sum('cost') * PRICED_MODEL.input) / 1e6 / Math.max(1, items.length)),
    facts,
    visibleShare: round(facts === 0 ? 1 : sum('visible') / facts),
    rewritesPerTrajectory: round(sum('rewrites') / Math.max(1, items.length)),
    visible: sum('visible'),
    retrievable: sum('retrievable'),
    lost: sum('lost'),
  };
}

function round(value) {
  return Math.round(value * 10_000) / 10_000;
}

function printTable(rows) {
  const header = [
    'policy',
    'context',
    'visible',
    'hidden+found',
    'lost',
    'offloaded',
    'rewrites/traj',
    'cached cost',
    '$/traj',
    '| A: context',
    'visible',
    '| B: context',
    'visible',
  ];
  const body = rows.map((row) => [
    row.label,
    row.all.contextRatio.toFixed(3),
    `${(row.all.visibleShare * 100).toFixed(1)}%`,
    String(row.all.retrievable),
    String(row.all.lost),
    String(row.offloaded),
    row.all.rewritesPerTrajectory.toFixed(1),
    row.all.cachedCostRatio.toFixed(3),
    row.all.dollarsPerTrajectory.toFixed(4),
    `| ${row.halfA.contextRatio.toFixed(3)}`,
    `${(row.halfA.visibleShare * 100).toFixed(1)}%`,
    `| ${row.halfB.contextRatio.toFixed(3)}`,
    `${(row.halfB.visibleShare * 100).toFixed(1)}%`,
  ]);
  console.log(
    `facts: ${rows[0]?.all.facts ?? 0} (A: ${rows[0]?.halfA.facts ?? 0}, B: ${rows[0]?.halfB.facts ?? 0}); context = cumulative context / all inline\n`,
  );
  for (const line of textTable(header, body)) console.log(line);
  console.log(
    `cached cost = input cost with prompt caching / the same for all inline, priced as ${PRICED_MODEL.name} ($${PRICED_MODEL.input} per million input tokens, cache reads $${PRICED_MODEL.cacheRead} = 0.1x, cache writes $${PRICED_MODEL.cacheWrite} = 1.25x): each request reads the messages it shares from the start with the one before and writes the rest; tokens estimated as chars / 4; $/traj = that cost per trajectory`,
  );
  printParetoFront(rows);
  for (const row of rows.filter((item) => item.summarized !== undefined)) {
    console.log(
      `${row.key}: ${row.summarized} observations got a summary (the others are outside 50 KB-1 MB)`,
    );
  }
  if (rows.some((row) => row.key === 'salient-masked')) {
    console.log(
      '(*) needs a runtime that rewrites earlier observations (breaks prompt caching at each rewrite)',
    );
  }
}

/**
 * The policies no other row beats on context, rewrites and cached cost at once, among those that lose nothing and show
 * every fact where it is used (the others answer a different question).
 */
function printParetoFront(rows) {
  const complete = rows.filter((row) => row.all.lost === 0 && row.all.visibleShare === 1);
  const beats = (a, b) =>
    a.all.contextRatio <= b.all.contextRatio &&
    a.all.rewritesPerTrajectory <= b.all.rewritesPerTrajectory &&
    a.all.cachedCostRatio <= b.all.cachedCostRatio &&
    (a.all.contextRatio < b.all.contextRatio ||
      a.all.rewritesPerTrajectory < b.all.rewritesPerTrajectory ||
      a.all.cachedCostRatio < b.all.cachedCostRatio);
  const front = complete
    .filter((row) => !complete.some((other) => beats(other, row)))
    .sort((a, b) => a.all.rewritesPerTrajectory - b.all.rewritesPerTrajectory);
  console.log(
    '\nPareto front (100% visible, 0 lost; no other row has lower-or-equal context, rewrites and cost):',
  );
  for (const line of textTable(
    [
      'policy',
      'context',
      'rewrites/traj',
      'cached cost',
      '| A: context',
      'rewrites',
      '| B: context',
      'rewrites',
    ],
    front.map((row) => [
      row.label,
      row.all.contextRatio.toFixed(3),
      row.all.rewritesPerTrajectory.toFixed(2),
      row.all.cachedCostRatio.toFixed(3),
      `| ${row.halfA.contextRatio.toFixed(3)}`,
      row.halfA.rewritesPerTrajectory.toFixed(2),
      `| ${row.halfB.contextRatio.toFixed(3)}`,
      row.halfB.rewritesPerTrajectory.toFixed(2),
    ]),
  )) {
    console.log(line);
  }
}

/** SQLite when its backend exists in this tree (and is built), else the memory driver. */
async function openStore() {
  const sqliteSource = join(root, 'src/stores/sqlite/index.ts');
  const sqliteBuilt = join(root, 'dist/stores/sqlite/index.js');
  if (existsSync(sqliteSource) && existsSync(sqliteBuilt)) {
    const { createSqliteDriver } = await import(sqliteBuilt);
    const directory = mkdtempSync(join(tmpdir(), 'bench-context-'));
    const path = join(directory, 'context.db');
    const scratchpad = createScratchpad({ driver: createSqliteDriver({ path }) });
    return {
      scratchpad,
      storeLabel: `sqlite (${path})`,
      cleanup: async () => {
        await scratchpad.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  }
  const scratchpad = createScratchpad({ driver: createMemoryDriver() });
  return {
    scratchpad,
    storeLabel: 'memory (src/stores/sqlite/index.ts not present or not built)',
    cleanup: () => scratchpad.close(),
  };
}
