// npm run bench:live -- --provider ollama|openai|anthropic --model M [--tasks 24] [--fake] [--json PATH]
// npm run bench:live -- --base-url URL --model M [--api-key-env NAME]   (any OpenAI-compatible endpoint)
// A live evaluation for whoever has a real model: tasks over large generated observations with a planted fact at
// the start, the middle or the end, run three times — with the scratchpad (offload + read tool), with plain
// head+tail truncation at the size the scratchpad arm showed, and with the whole output inline — reporting success
// rate, tokens and latency per arm.
// --fake runs the same harness through the --base-url path against a fake OpenAI-compatible server on 127.0.0.1
// whose "model" answers only from what its context shows (it reads the stored entry when it can): CI uses it to
// prove the harness runs end to end.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadRuntimeConfig } from '../dist/runtime/config/load-runtime-config.js';
import { resolveModel } from '../dist/runtime/config/resolve-model.js';
import { loadCatalog } from '../dist/runtime/executors/load-catalog.js';
import { runExecutorDetailed } from '../dist/runtime/executors/run-executor.js';
import { ensureShippedExecutors } from '../dist/runtime/executors/shipped-executors.js';
import { runTurn } from '../dist/runtime/planner/run-turn.js';
import { createVaglio } from '../dist/runtime/vaglio/vaglio.js';
import { createScratchpad } from '../dist/scratchpad/scratchpad.js';
import { createSqliteDriver } from '../dist/stores/sqlite/index.js';
import { startFakeOpenAI } from '../dist/testing/fake-servers/index.js';
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

function fakeModelStep(request) {
  const messages = request.body.messages;
  const query = messages.find((message) => message.role === 'user').content;
  const task = tasks.find((item) => item.query === query);
  const reader = READERS[task.kind];
  const seen = messages
    .filter((message) => message.role === 'tool')
    .map((message) => message.content)
    .join('\n');
  const found = reader.find.exec(seen);
  if (found) return `The answer is ${found[1]}.`;
  const tools = (request.body.tools ?? []).map((tool) => tool.function.name);
  const reads = messages.filter((message) => message.role === 'tool').length;
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
        position: task.position,
        arm,
        success:
          result.finalKind === 'answer' &&
          result.finalMessage.toLowerCase().includes(task.answer.toLowerCase()),
        finalKind: result.finalKind,
        steps: result.steps.length,
        inputTokens: result.steps.reduce((sum, step) => sum + step.llm.inputTokens, 0),
        outputTokens: result.steps.reduce((sum, step) => sum + step.llm.outputTokens, 0),
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
      start: rate((row) => row.position === 'start'),
      middle: rate((row) => row.position === 'middle'),
      end: rate((row) => row.position === 'end'),
      tokens: Math.round(
        mine.reduce((sum, row) => sum + row.inputTokens + row.outputTokens, 0) / mine.length,
      ),
      latencyMs: round(mine.reduce((sum, row) => sum + row.latencyMs, 0) / mine.length, 1),
    };
  });
  console.log(
    `\nLive evaluation: ${tasks.length} tasks (${endpoint}); truncate shows as many characters as the scratchpad arm did, inline the whole output`,
  );
  printTable(
    ['arm', 'success', 'fact at start', 'middle', 'end', 'tokens/task', 'latency ms/task'],
    arms.map((arm) => [arm.arm, arm.success, arm.start, arm.middle, arm.end, arm.tokens, arm.latencyMs]),
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

/** Characters of the observations the model saw in the scratchpad arm's first step (the budget for the baseline). */
function estimateObservationChars(result) {
  const first = result.steps[0];
  return typeof first?.result?.chars === 'number' ? first.result.chars : 4000;
}
