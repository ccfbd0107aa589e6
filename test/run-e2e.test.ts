import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest, FakeServer } from '../src/testing/fake-servers/index.js';
import {
  closedPortURL,
  startFakeAnthropic,
  startFakeOllama,
  startFakeOpenAI,
} from '../src/testing/fake-servers/index.js';
import { builtCli } from './helpers/built-cli.js';
import { runCliAsync } from './helpers/run-cli-async.js';

let cli: string;
let home: string;
let workdir: string;
const errors = [
  'ERROR disk /dev/vdb1 is 97% full',
  'ERROR payment-service timeout after 30s',
  'ERROR LAST_CRITICAL_EVENT in scheduler',
];

beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-run-'));
  workdir = join(home, 'work');
  const lines: string[] = [];
  for (let index = 0; index < 6000; index++) {
    lines.push(
      `2026-04-26 10:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')} INFO event number ${index} handled in ${index % 97}ms`,
    );
    if (index === 1200) lines.push(`2026-04-26 10:20:00 ${errors[0]}`);
    if (index === 3900) lines.push(`2026-04-26 11:05:00 ${errors[1]}`);
  }
  lines.push(`2026-04-26 23:59:59 ${errors[2]}`);
  rmSync(workdir, { recursive: true, force: true });
  mkdirSync(workdir, { recursive: true });
  writeFileSync(join(workdir, 'big.log'), `${lines.join('\n')}\n`);
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    ...extra,
  };
}

/** The last tool-result text a provider request carries, in each provider's own format. */
function lastToolResult(request: FakeRequest): string {
  const messages = request.body.messages as Array<Record<string, unknown>>;
  const last = messages[messages.length - 1] as Record<string, unknown>;
  if (Array.isArray(last.content)) {
    const block = (last.content as Array<Record<string, unknown>>).findLast(
      (part) => part.type === 'tool_result',
    ) as Record<string, unknown>;
    return typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
  }
  return String(last.content);
}

function toolNames(request: FakeRequest): string[] {
  return (request.body.tools ?? []).map(
    (tool: Record<string, unknown>) => (tool.function as { name: string } | undefined)?.name ?? tool.name,
  );
}

/** The conversation of the issue: fs_read → synthetic observation → scratchpad_read regex → answer. */
function bigLogScript(seen: {
  observation?: string;
  grep?: string;
  firstTools?: string[];
  secondTools?: string[];
}) {
  return [
    (request: FakeRequest) => {
      seen.firstTools = toolNames(request);
      return { toolCalls: [{ name: 'fs_read', arguments: { path: './big.log' } }] };
    },
    (request: FakeRequest) => {
      seen.observation = lastToolResult(request);
      seen.secondTools = toolNames(request);
      const name =
        /"name": "([^"]+)"/.exec(seen.observation)?.[1] ??
        /saved as "([^"]+)"/.exec(seen.observation)?.[1] ??
        'fs_read_1';
      return {
        text: 'The log is stored; searching it for errors.',
        toolCalls: [{ name: 'scratchpad_read', arguments: { name, regex: 'ERROR' } }],
      };
    },
    (request: FakeRequest) => {
      seen.grep = lastToolResult(request);
      const found = errors.filter((error) => seen.grep?.includes(error));
      return `Found ${found.length} errors: ${found.join('; ')}`;
    },
  ];
}

async function expectBigLogTurn(
  server: FakeServer,
  args: string[],
  extraEnv: Record<string, string>,
  seen: Parameters<typeof bigLogScript>[0],
) {
  const result = await runCliAsync(
    cli,
    [
      '--db',
      join(home, `${args[0]}.db`),
      'run',
      'read ./big.log and tell me the errors',
      '--quiet',
      '--provider',
      ...args,
    ],
    {
      env: env(extraEnv),
      cwd: workdir,
    },
  );
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`Found 3 errors: ${errors.join('; ')}\n`);
  expect(seen.firstTools).toContain('fs_read');
  expect(seen.firstTools).not.toContain('scratchpad_read');
  expect(seen.secondTools).toContain('scratchpad_read');
  // The model saw a synthetic observation, not 400 KB of log.
  expect(seen.observation?.length).toBeLessThan(20_000);
  expect(seen.observation).toContain('scratchpad_read');
  for (const error of errors) expect(seen.grep).toContain(error);
  expect(server.remaining).toBe(0);
}

describe('scratchpad run, end to end against fake providers', () => {
  it('Ollama: fs_read → synthetic observation → scratchpad_read slice → answer, logged', async () => {
    const seen = {};
    const server = await startFakeOllama(bigLogScript(seen), { models: ['qwen3:8b'] });
    try {
      await expectBigLogTurn(server, ['ollama'], { OLLAMA_HOST: server.url }, seen);
      const turns = join(home, 'data', 'scratchpad', 'turns');
      const [file] = readdirSync(turns);
      const record = JSON.parse(
        readFileSync(join(turns, file as string), 'utf8')
          .trim()
          .split('\n')
          .at(-1) as string,
      );
      expect(record).toMatchObject({
        user_query: 'read ./big.log and tell me the errors',
        mode: 'local',
        final_kind: 'answer',
        model: { provider: 'ollama', modelId: 'qwen3:8b' },
      });
      expect(record.candidates[0]).toBe('fs_read');
      expect(
        record.steps.map((step: { tool: string; outcome: string }) => [step.tool, step.outcome]),
      ).toEqual([
        ['fs_read', 'executed'],
        ['scratchpad_read', 'builtin'],
      ]);
      expect(record.steps[0]).toMatchObject({
        vaglio: { approved: true, blocked_by: null },
        validation: { ok: true },
        result: { offloaded: true },
      });
      expect(record.steps[0].llm.inputTokens).toBeGreaterThan(0);
      expect(typeof record.turn_id).toBe('string');
      expect(record.ts_end).toBeGreaterThanOrEqual(record.ts_start);
    } finally {
      await server.close();
    }
  });

  it('OpenAI-compatible: the same turn', async () => {
    const seen = {};
    const server = await startFakeOpenAI(bigLogScript(seen), { models: ['local-model'] });
    try {
      await expectBigLogTurn(
        server,
        ['openai', '--model', 'local-model'],
        { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test' },
        seen,
      );
    } finally {
      await server.close();
    }
  });

  it('Anthropic: the same turn', async () => {
    const seen = {};
    const server = await startFakeAnthropic(bigLogScript(seen), { models: ['claude-sonnet-4-6'] });
    try {
      await expectBigLogTurn(
        server,
        ['anthropic'],
        { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' },
        seen,
      );
    } finally {
      await server.close();
    }
  });

  it('an unreachable provider ends the turn with final_kind error, naming the host and how to configure another', async () => {
    const url = await closedPortURL();
    const result = await runCliAsync(
      cli,
      ['--db', join(home, 'down.db'), '--json', 'run', 'read ./big.log'],
      { env: env({ OLLAMA_HOST: url }), cwd: workdir },
    );
    expect(result.code).toBe(1);
    const record = JSON.parse(result.stdout);
    expect(record.final_kind).toBe('error');
    expect(record.final_message).toContain(url.replace(/\/$/, ''));
    expect(record.final_message).toMatch(/OLLAMA_HOST/);
    expect(record.log_file).toMatch(/turns\/\d{4}-\d\d-\d\d\.jsonl$/);
  });
});
