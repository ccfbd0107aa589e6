// npm run bench:live -- --provider ollama|openai|anthropic --model M [--tasks 24] [--fake] [--json PATH]
// npm run bench:live -- --base-url URL --model M [--api-key-env NAME]   (any OpenAI-compatible endpoint)
// A live evaluation for whoever has a real model: tasks over large generated observations (bench/lib/live-tasks.js) —
// needle tasks with a planted fact at the start, the middle or the end, and the LRO paper's kinds: a whole-corpus
// ID lookup, a filter (every record matching a condition) and an aggregation over a large output, their answers
// computed from the generated data — run three times: with the scratchpad (offload + read tool), with plain
// head+tail truncation at the size the scratchpad arm showed, and with the whole output inline; reporting success
// rate per family of task, tokens and latency per arm.
// --fake runs the same harness through the --base-url path against a fake OpenAI-compatible server on 127.0.0.1
// whose "model" answers only from what its context shows (it greps the stored entry once when it can, and for the
// LRO kinds works the answer out from the records it has seen, each once): CI uses it to prove the harness runs
// end to end. Its figures say nothing about a real model.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createScratchpad } from '../dist/service/scratchpad.js';
import { createSqliteDriver } from '../dist/stores/sqlite/index.js';
import { startFakeOpenAI } from '../dist/testing/fake-servers/index.js';
import { loadRuntimeConfig } from '../packages/runtime/dist/config/load-runtime-config.js';
import { resolveModel } from '../packages/runtime/dist/config/resolve-model.js';
import { loadCatalog } from '../packages/runtime/dist/executors/load-catalog.js';
import { runExecutorDetailed } from '../packages/runtime/dist/executors/run-executor.js';
import { ensureShippedExecutors } from '../packages/runtime/dist/executors/shipped-executors.js';
import { runTurn } from '../packages/runtime/dist/planner/run-turn.js';
import { createVaglio } from '../packages/runtime/dist/vaglio/vaglio.js';
import { generateTasks } from './lib/live-tasks.js';
import { printTable, round } from './lib/measure.js';

const { values } = parseArgs({
  options: {
    provider: { type: 'string' },
    model: { type: 'string' },
    tasks: { type: 'string', default: '24' },
    fake: { type: 'boolean', default: false },
    'base-url': { type: 'string' },
    'api-key-env': { type: 'string' },
    json: { type: 'string' },
  },
});
if (!values.fake && !((values.provider || values['base-url']) && values.model)) {
  console.error(
    'usage: npm run bench:live -- --provider ollama|openai|anthropic --model MODEL [--tasks N]\n       npm run bench:live -- --base-url URL --model MODEL [--api-key-env NAME]   (an OpenAI-compatible endpoint)\n       npm run bench:live -- --fake   (no model needed: a fake OpenAI-compatible server proves the harness runs)',
  );
  process.exit(2);
}

const home = mkdtempSync(join(tmpdir(), 'scratchpad-live-'));
const env = { ...process.env, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
const taskDir = join(home, 'tasks');
mkdirSync(taskDir, { recursive: true });
const tasks = generateTasks(taskDir, Number(values.tasks));
const ARMS = ['scratchpad', 'truncate', 'inline'];
/** Families of task: needle (a planted fact) and the LRO kinds. */
const FAMILIES = ['needle', 'lookup', 'filter', 'aggregate'];

/** Finds the planted fact in what a context shows, the way a careful reader would (fake mode only). */
const READERS = {
  log: { find: /payment gateway rejected the batch with code (E-\d+-\d+XK)/, search: 'payment gateway' },
  json: {
    find: /acct-special-7731"[\s\S]{0,60}?"owner": "([^"]+)"/,
    search: 'acct-special-7731',
    context: 2,
  },
  source: { find: /RETRY_MAGIC = (0x[0-9a-f]+)/, search: 'RETRY_MAGIC' },
  csv: { find: /,([A-Za-z]+-\d+),51\.3,/, search: ',51\\.3,' },
};

/** The LRO kinds: what to grep for, and the answer worked out from every record seen (each counted once). */
const WHOLE_OUTPUT_READERS = {
  lookup: {
    search: (task) =>
      task.query
        .match(/lookup\.[^\s,?]+@corp\.example/g)
        .map((email) => email.replaceAll('.', '\\.'))
        .join('|'),
    answer(seen, task) {
      const ids = task.query.match(/lookup\.[^\s,?]+@corp\.example/g).map((email) => {
        const found = new RegExp(
          `"id":"(usr-\\d+)","name":"[^"]*","email":"${email.replaceAll('.', '\\.')}"`,
        ).exec(seen);
        return found?.[1];
      });
      return ids.every(Boolean) ? `The ids are ${ids.join(', ')}.` : undefined;
    },
  },
  filter: {
    search: () => ',north,disputed,',
    answer(seen) {
      const ids = new Set(
        [...seen.matchAll(/(ORD-\d{6}),cust-\d+,north,disputed,/g)].map((found) => found[1]),
      );
      return ids.size > 0 ? `The matching orders are ${[...ids].join(', ')}.` : undefined;
    },
  },
  aggregate: {
    search: () => 'status=503',
    answer(seen) {
      const bytes = new Map();
      for (const found of seen.matchAll(/status=503 bytes=(\d+) req=(r\d+)/g))
        bytes.set(found[2], Number(found[1]));
      if (bytes.size === 0) return undefined;
      return `The total is ${[...bytes.values()].reduce((sum, value) => sum + value, 0)} bytes.`;
    },
  },
};

/**
 * A tool message as a model reads it: the text, and, when it is a JSON result, its string fields unescaped too (a
 * result kept inline arrives as `{"ok": true, "content": "…"}`, its quotes and newlines escaped).
 */
function readable(content) {
  try {
    const value = JSON.parse(content);
    if (value && typeof value === 'object') {
      const strings = Object.values(value).filter((field) => typeof field === 'string');
      return [content, ...strings].join('\n');
    }
  } catch {
    // Not JSON: plain text as it is.
  }
  return content;
}

function fakeModelStep(request) {
  const messages = request.body.messages;
  const query = messages.find((message) => message.role === 'user').content;
  const task = tasks.find((item) => item.query === query);
  const seen = messages
    .filter((message) => message.role === 'tool')
    .map((message) => readable(message.content))
    .join('\n');
  const tools = (request.body.tools ?? []).map((tool) => tool.function.name);
  const reads = messages.filter((message) => message.role === 'tool').length;
  const whole = WHOLE_OUTPUT_READERS[task.kind];
  if (whole) {
    // A filter's or a sum's reader cannot know it has seen every record: it greps the stored output once when it
    // has the read tool, and answers from what it has seen after that (or after the file's own observation).
    if (reads === 0) return { toolCalls: [{ name: 'fs_read', arguments: { path: task.file } }] };
    if (tools.includes('scratchpad_read') && reads < 2) {
      const name = /"name": "([^"]+)"/.exec(seen)?.[1];
      return { toolCalls: [{ name: 'scratchpad_read', arguments: { name, regex: whole.search(task) } }] };
    }
    return whole.answer(seen, task) ?? 'I could not find it in what I was shown.';
  }
  const reader = READERS[task.kind];
  const found = reader.find.exec(seen);
  if (found) return `The answer is ${found[1]}.`;
  if (reads === 0) return { toolCalls: [{ name: 'fs_read', arguments: { path: task.file } }] };
  if (tools.includes('scratchpad_read') && reads < 3) {
    const name = /"name": "([^"]+)"/.exec(seen)?.[1];
    return {
      toolCalls: [
        {
          name: 'scratchpad_read',
          arguments: { name, regex: reader.search, ...(reader.context ? { context: reader.context } : {}) },
        },
      ],
    };
  }
  return 'I could not find it in what I was shown.';
}

function headTail(text, budget) {
  if (text.length <= budget) return text;
  const half = Math.floor(budget / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters truncated ...]\n${text.slice(-half)}`;
}

let fake;
try {
  let model;
  let endpoint = values.provider
    ? `${values.provider} ${values.model}`
    : `${values['base-url']} ${values.model}`;
  if (values.fake || values['base-url']) {
    let baseURL = values['base-url'];
    if (values.fake) {
      fake = await startFakeOpenAI([], { models: ['fake-reader'] });
      for (let index = 0; index < tasks.length * ARMS.length * 5; index++) fake.enqueue(fakeModelStep);
      baseURL = fake.baseURL;
      endpoint = `fake reader model at ${baseURL}`;
    }
    // The OpenAI-compatible provider at that URL, configured from the bench's own empty config home: nothing in
    // the user's config.toml changes the endpoint.
    const keyEnv = values['api-key-env'] ?? 'OPENAI_API_KEY';
    model = resolveModel(
      await loadRuntimeConfig({ env }),
      'fast',
      { provider: 'openai', model: values.model ?? 'fake-reader' },
      {
        env: {
          ...env,
          OPENAI_BASE_URL: baseURL,
          ...(process.env[keyEnv] ? { OPENAI_API_KEY: process.env[keyEnv] } : {}),
        },
      },
    );
  } else {
    model = resolveModel(
      await loadRuntimeConfig({ env: process.env }),
      'fast',
      { provider: values.provider, model: values.model },
      { env: process.env },
    );
  }
  const shipped = await ensureShippedExecutors({ env });
  const catalog = await loadCatalog({ dirs: [shipped.executorsDir], trustedKeys: shipped.trustedKeys });
  const scratchpad = createScratchpad({ driver: createSqliteDriver({ path: join(home, 'live.db') }) });
  const vaglio = createVaglio({ logDir: false, env: {} });
  const rows = [];
  for (const task of tasks) {
    for (const arm of ARMS) {
      const budget =
        rows.find((row) => row.task === task.id && row.arm === 'scratchpad')?.observationChars ?? 0;
      const started = performance.now();
      const result = await runTurn({
        query: task.query,
        model,
        executors: catalog.executors,
        scratchpad,
        session: `${arm}-${task.id}`,
        vaglio,
        env,
        turnLogDir: join(home, 'turns'),
        // Inline stores nothing and shows the whole output.
        ...(arm === 'inline' ? { offload: { threshold: Number.MAX_SAFE_INTEGER } } : {}),
        // The baseline stores nothing and shows head + tail of the same size the scratchpad arm showed.
        ...(arm === 'truncate'
          ? {
              offload: { threshold: Number.MAX_SAFE_INTEGER },
              execute: async (executor, args, options) => {
                // No content receiver: the executor's content comes back as one string (held in memory, up to
                // the output cap) that this arm cuts, rather than streamed into the store.
                const run = await runExecutorDetailed(executor, args, {
                  ...options,
                  receiveContent: undefined,
                });
                if (typeof run.outcome.content === 'string')
                  run.outcome = {
                    ...run.outcome,
                    content: headTail(run.outcome.content, Math.max(2000, budget)),
                  };
                return run;
              },
            }
          : {}),
      });
      const latencyMs = performance.now() - started;
      const firstObservation = result.steps[0]?.result;
      rows.push({
        task: task.id,
        kind: task.kind,
        family: task.family,
        position: task.position,
        arm,
        success: result.finalKind === 'answer' && task.score(result.finalMessage),
        expected: task.answer,
        answer: result.finalMessage.slice(0, 500),
        finalKind: result.finalKind,
        steps: result.steps.length,
        // Every model request of the turn (each step's, the final answer's, a model judge's).
        modelCalls: result.record.model_calls.length,
        inputTokens: result.record.model_calls.reduce((sum, call) => sum + (call.inputTokens ?? 0), 0),
        outputTokens: result.record.model_calls.reduce((sum, call) => sum + (call.outputTokens ?? 0), 0),
        latencyMs,
        observationChars: arm === 'scratchpad' ? estimateObservationChars(result) : budget,
        offloaded: firstObservation?.offloaded === true,
      });
    }
  }
  await scratchpad.close();
  const arms = ARMS.map((arm) => {
    const mine = rows.filter((row) => row.arm === arm);
    const rate = (filter) => {
      const subset = mine.filter(filter);
      return subset.length === 0
        ? 'n/a'
        : `${round((100 * subset.filter((row) => row.success).length) / subset.length, 1)}%`;
    };
    return {
      arm,
      success: rate(() => true),
      ...Object.fromEntries(FAMILIES.map((family) => [family, rate((row) => row.family === family)])),
      start: rate((row) => row.position === 'start'),
      middle: rate((row) => row.position === 'middle'),
      end: rate((row) => row.position === 'end'),
      tokens: Math.round(
        mine.reduce((sum, row) => sum + row.inputTokens + row.outputTokens, 0) / mine.length,
      ),
      latencyMs: round(mine.reduce((sum, row) => sum + row.latencyMs, 0) / mine.length, 1),
    };
  });
  const perFamily = FAMILIES.map(
    (family) => `${tasks.filter((task) => task.family === family).length} ${family}`,
  ).join(', ');
  console.log(
    `\nLive evaluation: ${tasks.length} tasks (${endpoint}); ${perFamily}; truncate shows as many characters as the scratchpad arm did, inline the whole output`,
  );
  if (values.fake)
    console.log(
      'fake reader: it answers only from what it was shown, and for lookup/filter/aggregate works the answer out from the records it saw; the figures check the harness, not a model',
    );
  printTable(
    ['arm', 'success', ...FAMILIES, 'needle at start', 'middle', 'end', 'tokens/task', 'latency ms/task'],
    arms.map((arm) => [
      arm.arm,
      arm.success,
      ...FAMILIES.map((family) => arm[family]),
      arm.start,
      arm.middle,
      arm.end,
      arm.tokens,
      arm.latencyMs,
    ]),
  );
  const output = values.json ?? join(process.cwd(), 'bench', 'results', 'live.json');
  mkdirSync(join(output, '..'), { recursive: true });
  writeFileSync(
    output,
    `${JSON.stringify({ date: new Date().toISOString(), fake: values.fake, provider: values.provider ?? 'openai-compatible', baseURL: values.fake ? 'fake' : (values['base-url'] ?? null), model: values.model ?? 'fake-reader', arms, rows }, null, 2)}\n`,
  );
  console.log(`\nwrote ${output}`);
} finally {
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
}

/**
 * Characters of the observation the model saw in the scratchpad arm's first step (the budget for the baseline): an
 * offloaded result's `shownChars`, an inline one's `chars`, else 4,000.
 */
function estimateObservationChars(result) {
  const shown = result.steps[0]?.result;
  if (typeof shown?.shownChars === 'number') return shown.shownChars;
  return typeof shown?.chars === 'number' ? shown.chars : 4000;
}
