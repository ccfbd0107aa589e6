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
import { lastToolResult, offeredTools } from './helpers/run-home.js';

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

/** The conversation of the issue: fs_read → synthetic observation → scratchpad_read regex → answer. */
function bigLogScript(seen: {
  observation?: string;
  grep?: string;
  firstTools?: string[];
  secondTools?: string[];
}) {
  return [
    (request: FakeRequest) => {
      seen.firstTools = offeredTools(request);
      return { toolCalls: [{ name: 'fs_read', arguments: { path: './big.log' } }] };
    },
    (request: FakeRequest) => {
      seen.observation = lastToolResult(request);
      seen.secondTools = offeredTools(request);
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
      expect(file).toBe(`${new Date(record.ts_start * 1000).toISOString().slice(0, 10)}.jsonl`);
      // Seed 000: what the runtime offloads lives one hour, and goes at the start of a later turn.
      const listed = await runCliAsync(cli, ['--db', join(home, 'ollama.db'), '--json', 'list'], {
        env: env({}),
        cwd: workdir,
      });
      const [entry] = JSON.parse(listed.stdout).entries;
      expect(entry.expiresAt - entry.createdAt).toBe(3_600_000);
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

  it('prints progress on stderr: each step with its arguments, verdict, result and latency; --verbose adds the model text', async () => {
    writeFileSync(join(workdir, 'short.txt'), 'one line\n');
    const script = () => [
      { text: 'Reading the file first.', toolCalls: [{ name: 'fs_read', arguments: { path: 'short.txt' } }] },
      'It says: one line',
    ];
    const server = await startFakeOllama([...script(), ...script()]);
    try {
      const args = ['--db', join(home, 'progress.db'), 'run', 'read short.txt'];
      const plain = await runCliAsync(cli, args, { env: env({ OLLAMA_HOST: server.url }), cwd: workdir });
      expect(plain.stdout).toBe('It says: one line\n');
      const lines = plain.stderr.trim().split('\n');
      expect(lines[0]).toMatch(/^turn [0-9a-f]{8} · mode local · \d+ candidates: fs_read, /);
      expect(lines).toContain('  fast model: choosing the next step…');
      // The step's latency reads `N ms`, or `N.N s` from a second on (a loaded machine gets there).
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^ {2}step 1 fs_read \{"path":"short\.txt"\} → executed · vaglio approved 0\.70 \(rules\) · \d+ chars inline · (\d+ ms|\d+\.\d s)$/,
        ),
      );
      expect(lines.at(-1)).toMatch(/^answer · logged in .*turns\/\d{4}-\d\d-\d\d\.jsonl$/);
      expect(plain.stderr).not.toContain('Reading the file first.');
      const verbose = await runCliAsync(cli, [...args, '--verbose'], {
        env: env({ OLLAMA_HOST: server.url }),
        cwd: workdir,
      });
      expect(verbose.stderr).toContain('    | Reading the file first.');
      const both = await runCliAsync(cli, [...args, '--verbose', '--quiet'], { env: env({}), cwd: workdir });
      expect(both.code).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('stops a provider request after timeout_ms with a clear error', async () => {
    const server = await startFakeOllama([{ text: 'too late', delayMs: 5_000 }]);
    try {
      const config = join(home, 'slow.toml');
      writeFileSync(
        config,
        `[runtime.llm.fast]\nmodel = "qwen3:8b"\nbase_url = "${server.url}"\ntimeout_ms = 300\n`,
      );
      const result = await runCliAsync(
        cli,
        ['--db', join(home, 'slow.db'), 'run', 'hello', '--config', config, '--quiet'],
        { env: env({}), cwd: workdir },
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `Error (PROVIDER_UNREACHABLE): Ollama at ${server.url} gave no answer in time for model qwen3:8b: the request was stopped after 300 ms (timeout_ms = 300).`,
      );
      expect(result.stdout).toContain('raise timeout_ms under [runtime.llm.<tier>]');
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
