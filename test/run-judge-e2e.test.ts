import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScriptStep, FakeServer } from '../src/testing/fake-servers/index.js';
import { closedPortURL } from '../src/testing/fake-servers/index.js';
import { chatRequests, createRunHome, lastToolResult, type RunHome } from './helpers/run-home.js';

let home: RunHome;

beforeAll(() => {
  home = createRunHome('scratchpad-judge-');
  writeFileSync(join(home.workdir, 'notes.txt'), 'buy milk\n');
}, 120_000);
afterAll(() => home.close());

const ollama = (script: FakeScriptStep[]) => home.ollama(script);

/** Fast tier on `fast`, middle tier (the judge) at `middleURL`, and `[runtime.vaglio] judge = JUDGE`. */
function config(name: string, fast: FakeServer, middleURL: string, judge: 'model' | 'both') {
  return home.config(
    name,
    `[runtime.llm.fast]
model = "qwen3:8b"
base_url = "${fast.url}"

[runtime.llm.middle]
model = "gemma3:12b"
base_url = "${middleURL}"
timeout_ms = 5000

[runtime.vaglio]
judge = "${judge}"
`,
  );
}

/** The planner reads notes.txt, then answers with what the observation said. */
async function readingPlanner() {
  return ollama([
    { toolCalls: [{ name: 'fs_read', arguments: { path: 'notes.txt' } }] },
    (request) =>
      lastToolResult(request).includes('refused by the vaglio') ? 'I was not allowed.' : 'buy milk',
  ]);
}

async function run(query: string, configPath: string) {
  const result = await home.cli(['--json', 'run', query, '--config', configPath, '--quiet']);
  return { ...result, record: JSON.parse(result.stdout) };
}

describe('the model judge through scratchpad run', () => {
  it('denies: the middle tier scores the action below the threshold, the executor never runs', async () => {
    const fast = await readingPlanner();
    const middle = await ollama([{ text: '{"score": 0.05, "reason": "the user asked about the weather"}' }]);
    const { record } = await run('what is the weather like?', config('deny', fast, middle.url, 'model'));
    expect(record.final_message).toBe('I was not allowed.');
    expect(record.steps[0]).toMatchObject({
      outcome: 'denied',
      vaglio: {
        approved: false,
        blocked_by: 'judge',
        judge_kind: 'model',
        score: 0.05,
        model_reason: 'the user asked about the weather',
      },
    });
    // A fresh context: the request and the action only, with structured output, never the planner's conversation.
    const [judged] = chatRequests(middle.requests);
    expect(judged?.body.format).toMatchObject({ required: ['score', 'reason'] });
    expect(judged?.body.tools).toBeUndefined();
    const messages = judged?.body.messages as Array<{ role: string; content: string }>;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[1]?.content).toContain('"executor": "fs_read"');
    expect(messages[1]?.content).toContain('"request": "what is the weather like?"');
    expect(JSON.stringify(messages)).not.toContain('You are the planner');
    expect(record.model_calls.map((call: { purpose: string }) => call.purpose)).toEqual([
      'step',
      'judge',
      'step',
    ]);
  });

  it('approves: the action runs with judge_kind model', async () => {
    const fast = await readingPlanner();
    const middle = await ollama(['{"score": 0.92, "reason": "reads the notes the user asked for"}']);
    const { record } = await run('read my notes', config('approve', fast, middle.url, 'model'));
    expect(record.final_message).toBe('buy milk');
    expect(record.steps[0]).toMatchObject({
      outcome: 'executed',
      vaglio: { approved: true, judge_kind: 'model', score: 0.92 },
    });
  });

  it('both: the lower of the rule and model scores', async () => {
    const fast = await readingPlanner();
    const middle = await ollama(['{"score": 0.99, "reason": "fine"}']);
    const { record } = await run('read my notes', config('both', fast, middle.url, 'both'));
    expect(record.steps[0].vaglio).toMatchObject({ judge_kind: 'both', score: 0.7, approved: true });
  });

  it('fails over to the rules when the judge is down or answers nonsense, and says so', async () => {
    const down = await closedPortURL();
    const fast = await readingPlanner();
    const { record } = await run('read my notes', config('down', fast, down, 'model'));
    expect(record.final_message).toBe('buy milk');
    expect(record.steps[0].vaglio).toMatchObject({
      approved: true,
      judge_kind: 'rules-fallback',
      score: 0.7,
    });
    expect(record.steps[0].vaglio.reason).toContain(
      'rules-fallback: the model judge failed (PROVIDER_UNREACHABLE)',
    );
    expect(record.model_calls[1]).toMatchObject({ purpose: 'judge', error: expect.stringContaining(down) });

    const nonsense = await ollama(['Looks fine to me!']);
    const second = await run(
      'read my notes',
      config('nonsense', await readingPlanner(), nonsense.url, 'model'),
    );
    expect(second.record.steps[0].vaglio).toMatchObject({ judge_kind: 'rules-fallback', approved: true });
    expect(second.record.steps[0].vaglio.reason).toContain('the model judge failed (PROVIDER_ERROR)');
    const vaglioDir = join(home.dataDir, 'vaglio');
    const vaglioLog = readdirSync(vaglioDir)
      .map((file) => readFileSync(join(vaglioDir, file), 'utf8'))
      .join('');
    expect(vaglioLog).toContain('"judge_kind":"rules-fallback"');
    expect(vaglioLog).not.toContain('notes.txt');
  });
});
