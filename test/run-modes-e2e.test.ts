import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest, FakeScriptStep, FakeServer } from '../src/testing/fake-servers/index.js';
import { chatRequests, createRunHome, offeredTools, type RunHome } from './helpers/run-home.js';

let home: RunHome;

beforeAll(() => {
  home = createRunHome('scratchpad-modes-');
  writeFileSync(join(home.workdir, 'notes.txt'), 'buy milk\ncall the plumber\n');
}, 120_000);
afterAll(() => home.close());

const ollama = (script: FakeScriptStep[]) => home.ollama(script);

const openai = (script: FakeScriptStep[]) => home.openai(script);

/** A config with a fast tier on `fast` (Ollama) and, when given, a wise tier on `wise` (OpenAI-compatible). */
function config(name: string, fast: FakeServer, extra = '', wise?: FakeServer): string {
  return home.config(
    name,
    `[runtime.llm.fast]
provider = "ollama"
model = "qwen3:8b"
base_url = "${fast.url}"
${
  wise
    ? `
[runtime.llm.wise]
provider = "openai"
model = "frontier-1"
base_url = "${wise.baseURL}"
api_key_env = "WISE_KEY"
`
    : ''
}
${extra}`,
  );
}

async function run(query: string, configPath: string, ...args: string[]) {
  const result = await home.cli(['--json', 'run', query, '--config', configPath, '--quiet', ...args], {
    WISE_KEY: 'test',
  });
  return { ...result, record: JSON.parse(result.stdout) };
}

/** The user message of a request (the online answer request carries the results there). */
function userText(request: FakeRequest): string {
  return (request.body.messages as Array<{ role: string; content: string }>)
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');
}

describe('online mode (single-shot)', () => {
  it('runs a plan with a {{step1.content}} reference in order, then answers from the results without tools', async () => {
    const fast = await ollama([
      {
        toolCalls: [
          { name: 'fs_read', arguments: { path: 'notes.txt' } },
          { name: 'fs_write', arguments: { path: 'copy.txt', content: '{{step1.content}}' } },
        ],
      },
      (request) => {
        expect(offeredTools(request)).toEqual([]);
        expect(userText(request)).toContain('buy milk');
        return 'I copied your notes to copy.txt.';
      },
    ]);
    const { code, record } = await run(
      'read notes.txt and save a copy in copy.txt',
      config('online', fast),
      '--mode',
      'online',
    );
    expect(code).toBe(0);
    expect(readFileSync(join(home.workdir, 'copy.txt'), 'utf8')).toBe('buy milk\ncall the plumber\n');
    expect(record).toMatchObject({
      mode: 'online',
      final_kind: 'answer',
      final_message: 'I copied your notes to copy.txt.',
      plan: [
        { step: 1, tool: 'fs_read', args: { path: 'notes.txt' }, verdict: { approved: true } },
        { step: 2, tool: 'fs_write', args: { content: '{{step1.content}}' }, verdict: { approved: true } },
      ],
    });
    expect(record.steps.map((step: { outcome: string }) => step.outcome)).toEqual(['executed', 'executed']);
    expect(record.steps[1].references).toEqual(['step1.content']);
    expect(record.model_calls.map((call: { purpose: string }) => call.purpose)).toEqual(['plan', 'answer']);
    expect(chatRequests(fast.requests)).toHaveLength(2);
    expect(offeredTools(chatRequests(fast.requests)[0] as FakeRequest)).toContain('fs_write');
  });

  it('refuses the whole plan when one step is denied: nothing runs, no second request', async () => {
    const fast = await ollama([
      {
        toolCalls: [
          { name: 'fs_write', arguments: { path: 'before.txt', content: 'written first' } },
          { name: 'fs_read', arguments: { path: '/etc/shadow' } },
        ],
      },
    ]);
    const { code, record } = await run(
      'save a note and read the password file',
      config('online-denied', fast),
      '--mode',
      'online',
    );
    expect(code).toBe(1);
    expect(existsSync(join(home.workdir, 'before.txt'))).toBe(false);
    expect(record.final_kind).toBe('error');
    expect(record.final_message).toMatch(
      /^The plan was refused: step 2 \(fs_read\) was denied by the vaglio \(guard: argument "path" mentions a protected path .*\)\. Nothing was run\.$/,
    );
    expect(record.steps).toEqual([]);
    expect(record.plan[0].verdict.approved).toBe(true);
    expect(record.plan[1].verdict).toMatchObject({ approved: false, blocked_by: 'guard' });
    expect(chatRequests(fast.requests)).toHaveLength(1);
  });

  it('refuses a plan longer than cap_steps whole', async () => {
    const fast = await ollama([
      {
        toolCalls: [1, 2, 3].map((index) => ({
          name: 'fs_write',
          arguments: { path: `many-${index}.txt`, content: 'x' },
        })),
      },
    ]);
    const { record } = await run(
      'write three files',
      config('online-caps', fast, '[runtime]\ncap_steps = 2\n'),
      '--mode',
      'online',
    );
    expect(record.final_kind).toBe('cap_steps');
    expect(record.final_message).toBe(
      'The plan was refused: it has 3 steps, more than the step limit (2). Nothing was run.',
    );
    expect(existsSync(join(home.workdir, 'many-1.txt'))).toBe(false);
  });
});

describe('hybrid mode', () => {
  it('escalates by capability: a code:exec top candidate goes online on wise from the start', async () => {
    const fast = await ollama([]);
    const wise = await openai([
      { toolCalls: [{ name: 'shell_exec', arguments: { command: 'echo hybrid-ok' } }] },
      (request) => {
        expect(userText(request)).toContain('hybrid-ok');
        return 'The command printed hybrid-ok.';
      },
    ]);
    const { code, record } = await run(
      'run the shell command echo hybrid-ok',
      config('hybrid-capability', fast, '[runtime]\nmode = "hybrid"\n', wise),
    );
    expect(code).toBe(0);
    expect(record).toMatchObject({
      mode: 'hybrid',
      final_kind: 'answer',
      final_message: 'The command printed hybrid-ok.',
      escalation: { rule: 'critical_capabilities' },
    });
    expect(record.escalation.reason).toMatch(
      /^the top-ranked candidate shell_exec \(score \d+\) has the critical capability code:exec$/,
    );
    expect(record.attempts).toHaveLength(1);
    expect(record.attempts[0]).toMatchObject({
      mode: 'online',
      tier: 'wise',
      model: { provider: 'openai', modelId: 'frontier-1' },
    });
    expect(chatRequests(fast.requests)).toHaveLength(0);
  });

  it('escalates by cap: a local attempt that hits cap_same_executor is retried once online, summarised', async () => {
    const list = (path: string) => ({ toolCalls: [{ name: 'fs_list', arguments: { path } }] });
    const fast = await ollama([list('.'), list('..'), list('/tmp')]);
    const wise = await openai([
      (request) => {
        expect(userText(request)).toContain(
          'A first attempt with a local model ended with cap_same_executor',
        );
        expect(userText(request)).toContain('1. fs_list {"path":"."} → executed');
        return { toolCalls: [{ name: 'fs_read', arguments: { path: 'notes.txt' } }] };
      },
      'Your notes say: buy milk, call the plumber.',
    ]);
    const { code, record } = await run(
      'list my folders and find my notes',
      config('hybrid-cap', fast, '[runtime]\nmode = "hybrid"\n', wise),
    );
    expect(code).toBe(0);
    expect(record.escalation).toEqual({
      rule: 'escalate_on',
      reason: 'the local attempt ended with cap_same_executor',
    });
    expect(
      record.attempts.map((attempt: { mode: string; final_kind: string }) => [
        attempt.mode,
        attempt.final_kind,
      ]),
    ).toEqual([
      ['local', 'cap_same_executor'],
      ['online', 'answer'],
    ]);
    expect(record.attempts[0].steps).toHaveLength(2);
    expect(record.steps.map((step: { tool: string }) => step.tool)).toEqual(['fs_read']);
    expect(record.final_message).toBe('Your notes say: buy milk, call the plumber.');
  });

  it('stays local when no rule fires', async () => {
    const fast = await ollama(['Hello! How can I help?']);
    const { record } = await run('hello there', config('hybrid-local', fast, '[runtime]\nmode = "hybrid"\n'));
    expect(record).toMatchObject({ mode: 'hybrid', escalation: null, final_kind: 'answer' });
    expect(record.attempts.map((attempt: { mode: string }) => attempt.mode)).toEqual(['local']);
  });
});

describe('auto-escalation of tier', () => {
  it('moves the rest of the turn to the next tier after two failed validations in a row', async () => {
    const wrong = { toolCalls: [{ name: 'fs_read', arguments: { paht: 'notes.txt' } }] };
    const fast = await ollama([wrong, wrong]);
    const wise = await openai([
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'notes.txt' } }] },
      'buy milk, call the plumber',
    ]);
    const { record } = await run(
      'read notes.txt',
      config('escalate-tier', fast, '[runtime]\nescalate_tier = true\n', wise),
    );
    expect(record.final_kind).toBe('answer');
    expect(record.tier_escalations).toEqual([
      { step: 2, from: 'fast', to: 'wise', reason: '2 tool calls in a row failed validation' },
    ]);
    expect(record.steps.map((step: { tier: string; outcome: string }) => [step.tier, step.outcome])).toEqual([
      ['fast', 'invalid_arguments'],
      ['fast', 'invalid_arguments'],
      ['wise', 'executed'],
    ]);
    expect(chatRequests(wise.requests)).toHaveLength(2);
  });
});
