/**
 * `npm run bench:previews`: shows each output of the preview corpora through each offload policy — the dev set
 * (`../shared/data/previews`) and the held-out set (`bench/data/previews-heldout`), real tool outputs with questions a
 * user would ask (see their READMEs) — then scores, per set and policy:
 * - the mean observation size in characters;
 * - answered: the share of questions whose answers are all visible in the observation alone;
 * - reached: the share a literal-minded reader gets to with at most two read calls, each one a call the observation
 *   (or the first result) spells out or a grep for a question word it shows, run by the real `scratchpad_read`;
 * both overall and by need (needle, anomaly, format, structure). See bench/lib/preview-scoring.js.
 * The truncation baselines are cut, per output, to the default observation's own length.
 * Checks that every count each observation states is exact for the whole output or marked as an estimate or a lower
 * bound (bench/lib/preview-counts.js); any other count fails the run.
 * Also times the default preview on large synthetic outputs (it must stay bounded: it reads windows, not all).
 * Writes bench/results/previews.json (or --json PATH). Runs on the built dist/ (`npm run build`).
 *
 *   node bench/previews.js [--data DIR] [--sets dev,held-out] [--only ID,ID] [--policies KEY,KEY] [--show POLICY:ID|POLICY:*]
 *                          [--no-timing] [--no-large] [--json PATH]
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createOffloader,
  createOffloadPolicy,
  renderDefaultObservation,
} from '../dist/context/offload/index.js';
import { codePointPrefix, codePointSuffix } from '../dist/context/previews/code-points.js';
import { lineSignal } from '../dist/context/previews/line-signals.js';
import { describeLifetime } from '../dist/core/lifetime.js';
import { createMemoryDriver, createScratchpad } from '../dist/index.js';
import { createDefaultPreset, runTool, TOOL_NAMES } from '../dist/tools/index.js';
import { optionValue } from './lib/command-line.js';
import { LINE_PICKING_RULE, linePickingSummarizer } from './lib/line-picking-summarizer.js';
import { logBuffer } from './lib/log-text.js';
import { findPreviewCorpus, loadPreviewCorpus } from './lib/preview-corpus.js';
import { checkCounts } from './lib/preview-counts.js';
import { answered, outputContent, reachWithReads, visibleText } from './lib/preview-scoring.js';
import { timePreviews } from './lib/preview-timing.js';
import { textTable } from './lib/text-table.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => optionValue(name, fallback, args);
const list = (name) => option(name, '').split(',').filter(Boolean);

const NEEDS = ['needle', 'anomaly', 'format', 'structure'];

/** Truncation to a given number of characters: the first ones, or half from each end around a marker. */
const CUTS = {
  head: (text, size) => codePointPrefix(text, size),
  'head-tail': (text, size) => {
    const marker = (omitted) => `\n[... ${omitted} characters omitted ...]\n`;
    // The marker's length depends on the count it shows; settle it on the count that results.
    let keep = Math.max(0, size - marker(text.length).length);
    keep = Math.max(0, size - marker(text.length - keep).length);
    const head = Math.ceil(keep / 2);
    const tail = keep - head;
    return `${codePointPrefix(text, head)}${marker(text.length - keep)}${codePointSuffix(text, tail)}`;
  },
};

const POLICIES = [
  { key: 'default', label: 'default (salient preview)', policy: { format: 'default' } },
  { key: 'seed-000', label: 'seed 000: head 500 + tail 500', policy: { format: 'metnos' } },
  {
    key: 'first-last-lines',
    label: 'first/last 5 lines (deepagents)',
    policy: { format: 'default', preview: 'first-last-lines' },
  },
  {
    key: 'json-structure',
    label: 'JSON structure (else head+tail)',
    policy: { format: 'default', preview: 'json-structure' },
  },
  {
    // The model-written summary preview with a deterministic stand-in for the model (bench/lib/line-picking-summarizer.js),
    // on every output whatever its size (the runtime's default range is 50 KB to 1 MB).
    key: 'summary',
    label: 'summary preview (scripted line picker)',
    policy: {
      format: 'default',
      summarize: { summarizer: linePickingSummarizer, minBytes: 0, maxBytes: Number.MAX_SAFE_INTEGER },
    },
  },
  { key: 'head-same-size', label: "head, cut to the default's size", cut: 'head' },
  { key: 'head-tail-same-size', label: "head+tail, cut to the default's size", cut: 'head-tail' },
].filter(
  (entry) => list('--policies').length === 0 || ['default', ...list('--policies')].includes(entry.key),
);

const heldOutDirectory = join(root, 'bench/data/previews-heldout');
const sets = [
  { key: 'dev', label: 'dev set', directory: findPreviewCorpus(root, option('--data')) },
  { key: 'held-out', label: 'held-out set (bench/data/previews-heldout)', directory: heldOutDirectory },
].filter((set) => list('--sets').length === 0 || list('--sets').includes(set.key));
for (const set of sets) {
  if (set.directory && !existsSync(join(set.directory, 'questions.json'))) set.directory = undefined;
  if (!set.directory) {
    console.log(
      `bench:previews: no ${set.label} found` +
        (set.key === 'dev'
          ? ' (looked for shared/data/previews/questions.json beside the repository and its parents; or pass --data DIR)'
          : ''),
    );
  }
}
const present = sets.filter((set) => set.directory);
if (present.length === 0) process.exit(0);

const scratchpad = createScratchpad({ driver: createMemoryDriver() });
const readTool = createDefaultPreset().tools.find((tool) => tool.name === TOOL_NAMES.read);

/** Default observation length per set and item: the size the truncation baselines are cut to. */
const defaultSizes = new Map();
const setResults = [];
for (const set of present) {
  const items = loadPreviewCorpus(set.directory, list('--only'));
  if (items.length === 0) continue;
  const questionCount = items.reduce((sum, item) => sum + item.questions.length, 0);
  console.log(
    `\n== ${set.label}: ${set.directory} (${items.length} outputs, ${questionCount} questions) ==\n`,
  );
  const results = [];
  for (const entry of POLICIES) results.push(await runPolicy(entry, set, items));
  printTable(results);
  if (results.some((row) => row.key === 'summary'))
    console.log(`\nsummary preview: written by a ${LINE_PICKING_RULE}, on every output`);
  setResults.push({ ...set, outputs: items.length, questions: questionCount, results });
}
const allRows = setResults.flatMap((set) =>
  set.results.map((row) => ({ ...row, label: `${set.key}: ${row.label}` })),
);
// Outputs far larger than the corpus's, so the counts of a preview read from a sample are checked too.
if (!args.includes('--no-large')) allRows.push(await checkLargeOutputs());
const countProblems = printCounts(allRows);

for (const shown of list('--show')) {
  const [policyKey, itemId] = shown.split(':');
  for (const set of setResults) {
    const row = set.results.find((candidate) => candidate.key === policyKey);
    for (const [id, observation] of Object.entries(row?.observations ?? {})) {
      if (itemId === '*' || itemId === id)
        console.log(`\n--- ${policyKey} observation for ${set.key}/${id} ---\n${observation}`);
    }
  }
}

const timing = args.includes('--no-timing') ? null : await timePreviews();
if (timing) printTiming(timing);

const output = {
  generatedAt: new Date().toISOString(),
  command: 'npm run bench:previews',
  definitions: {
    size: 'characters (UTF-16 code units) of the observation the model reads',
    answered: 'every answer of the question is visible in the observation (bench/lib/preview-scoring.js)',
    reached:
      'answered after at most two scratchpad_read calls, each one spelled out by the observation or the first result, or a case-insensitive grep for a question word (stopwords left out) the reader has seen',
    sameSize: "truncation baselines are cut per output to the default observation's length",
    summary: `summary preview on every output, written by a ${LINE_PICKING_RULE}`,
  },
  sets: setResults.map((set) => ({
    key: set.key,
    data: { path: set.directory, outputs: set.outputs, questions: set.questions },
    policies: set.results.map(({ observations, ...rest }) => rest),
  })),
  countProblems,
  ...(timing ? { timing } : {}),
};
const resultsPath = option('--json', join(root, 'bench/results/previews.json'));
mkdirSync(dirname(resultsPath), { recursive: true });
writeFileSync(resultsPath, `${JSON.stringify(output, null, 2)}\n`);
console.log(`\nwrote ${resultsPath}`);
await scratchpad.close();
if (countProblems.length > 0) process.exitCode = 1;

/** Shows every item through one policy (one fresh session per item) and scores every question. */
async function runPolicy(entry, set, items) {
  const questions = [];
  const observations = {};
  const counts = { exact: 0, marked: 0, 'whole-read': 0, problems: [] };
  let totalSize = 0;
  for (const item of items) {
    const session = scratchpad.session(`${set.key}-${entry.key}-${item.id}`);
    const policy = entry.cut
      ? createOffloadPolicy({ format: 'default', preview: cutPreview(entry.cut, set, item) })
      : createOffloadPolicy(entry.policy);
    const outcome = await createOffloader({ session, policy }).process({
      tool: item.tool,
      result: item.text,
      turn: 'bench',
      step: 1,
      context: { task: item.task, history: [{ action: `${item.tool} ${item.call}` }] },
    });
    if (!outcome.offloaded) throw new Error(`${entry.key} kept ${item.id} inline (${outcome.reason})`);
    const observation = outcome.text;
    const countCheck = checkCounts({ observation, preview: outcome.preview, content: item.text, lineSignal });
    for (const { status } of countCheck.checked) counts[status] = (counts[status] ?? 0) + 1;
    counts.problems.push(...countCheck.problems.map((problem) => `${item.id}: ${problem}`));
    if (entry.key === 'default') defaultSizes.set(`${set.key}/${item.id}`, observation.length);
    observations[item.id] = observation;
    totalSize += observation.length;
    const content = outputContent(item.text);
    const read = cachedReader(session);
    for (const question of item.questions) {
      const calls = await reachWithReads({
        question,
        observation,
        content,
        entry: { name: outcome.entry.name, id: outcome.entry.id },
        read,
      });
      questions.push({
        item: item.id,
        question: question.id,
        need: question.need,
        answered: answered(question, visibleText(observation), content),
        reached: calls !== null,
        ...(calls && calls.length > 0 ? { calls } : {}),
      });
    }
  }
  const share = (rows, key) =>
    rows.length === 0 ? null : round(rows.filter((row) => row[key]).length / rows.length);
  const byNeed = Object.fromEntries(
    NEEDS.map((need) => {
      const rows = questions.filter((row) => row.need === need);
      return [
        need,
        { questions: rows.length, answered: share(rows, 'answered'), reached: share(rows, 'reached') },
      ];
    }),
  );
  return {
    key: entry.key,
    label: entry.label,
    meanSize: Math.round(totalSize / items.length),
    answered: share(questions, 'answered'),
    reached: share(questions, 'reached'),
    byNeed,
    counts,
    questions,
    observations,
  };
}

/** A preview that cuts the text so the whole default observation is as long as the default policy's for `item`. */
function cutPreview(cut, set, item) {
  return (input) => {
    const target = defaultSizes.get(`${set.key}/${item.id}`);
    if (target === undefined) throw new Error('the default policy runs first');
    // The envelope (header and read calls) around an empty preview, plus the newline before the preview.
    const envelope = renderedEnvelope(item, input);
    return { text: CUTS[cut](input.text, Math.max(0, target - envelope - 1)) };
  };
}

/** The length of the default observation for `item` with an empty preview (its header and read calls). */
function renderedEnvelope(item, input) {
  const entry = {
    id: '0'.repeat(16),
    name: `${item.tool}_1`,
    kind: 'text',
    bytes: input.bytes.byteLength,
    chars: [...input.text].length,
    lines: lineCount(input.text),
    expiresAt: null,
    updatedAt: 0,
    pinned: false,
  };
  const rendered = renderDefaultObservation({
    tool: item.tool,
    entry,
    preview: { text: '' },
    headPreview: false,
    metadata: {},
    readTool: TOOL_NAMES.read,
    lifetime: describeLifetime(entry, 0),
  });
  return rendered.text.length;
}

function lineCount(text) {
  let count = text.length === 0 || text.endsWith('\n') ? 0 : 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function cachedReader(session) {
  const cache = new Map();
  return async (call) => {
    const key = JSON.stringify(call);
    if (!cache.has(key)) cache.set(key, (await runTool(readTool, call, { session })).text);
    return cache.get(key);
  };
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}

function percent(value) {
  return value === null ? '-' : `${Math.round(value * 100)}%`;
}

/** The default policy's observations of large synthetic outputs, their counts checked (a row of counts only). */
async function checkLargeOutputs() {
  const counts = { exact: 0, marked: 0, 'whole-read': 0, problems: [] };
  const observations = {};
  for (const megabytes of [5, 30]) {
    const text = logBuffer(megabytes * 1024 * 1024).toString('utf8');
    const session = scratchpad.session(`large-${megabytes}`);
    const outcome = await createOffloader({ session, policy: createOffloadPolicy() }).process({
      tool: 'shell_exec',
      result: text,
    });
    const id = `log-${megabytes}MiB`;
    observations[id] = outcome.text;
    const countCheck = checkCounts({
      observation: outcome.text,
      preview: outcome.preview,
      content: text,
      lineSignal,
    });
    for (const { status } of countCheck.checked) counts[status] += 1;
    counts.problems.push(...countCheck.problems.map((problem) => `${id}: ${problem}`));
  }
  return {
    key: 'large-logs',
    label: 'default, synthetic logs of 5 and 30 MiB',
    counts,
    observations,
    countsOnly: true,
  };
}

function printTable(rows) {
  const counts = NEEDS.map((need) => `${need} ${rows[0]?.byNeed?.[need].questions ?? 0}`).join(', ');
  console.log(`questions by need: ${counts}; cells are answered / reached within two reads\n`);
  const header = ['policy', 'mean chars', 'all', ...NEEDS];
  const body = rows
    .filter((row) => !row.countsOnly)
    .map((row) => [
      row.label,
      row.meanSize.toLocaleString('en-US'),
      `${percent(row.answered)} / ${percent(row.reached)}`,
      ...NEEDS.map((need) => `${percent(row.byNeed[need].answered)} / ${percent(row.byNeed[need].reached)}`),
    ]);
  for (const line of textTable(header, body)) console.log(line);
}

/** Prints each policy's count check; returns every problem found. */
function printCounts(rows) {
  console.log(
    '\ncounts stated (exact: recounted from the output; marked: ≈ or ≥ with its note; whole-read: counted over the whole output, no rule to recount):',
  );
  const problems = [];
  for (const row of rows) {
    const { exact, marked, problems: found } = row.counts;
    console.log(
      `  ${row.label}: ${exact} exact, ${marked} marked, ${row.counts['whole-read']} whole-read, ${found.length} wrong or unmarked`,
    );
    for (const problem of found) {
      console.log(`    ${problem}`);
      problems.push(`${row.key}: ${problem}`);
    }
  }
  return problems;
}

function printTiming(timing) {
  console.log(
    `\npreview build time, ms (median of ${timing.repetitions}, alternated with head+tail; CPU = this process's user + system):`,
  );
  console.log(
    'output          size    default wall   default max   default CPU   head+tail wall   head+tail CPU',
  );
  for (const row of timing.rows) {
    const cells = [row.defaultMs, row.defaultMaxMs, row.defaultCpuMs, row.headTailMs, row.headTailCpuMs];
    const widths = [14, 13, 13, 16, 15];
    console.log(
      `${row.label.padEnd(13)} ${`${row.megabytes} MiB`.padStart(8)}${cells.map((cell, index) => cell.toFixed(1).padStart(widths[index] + 1)).join('')}`,
    );
  }
}
