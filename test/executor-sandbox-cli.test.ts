import { createHash } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest, FakeScriptStep } from '../src/testing/fake-servers/index.js';
import { startFakeOpenAI } from '../src/testing/fake-servers/index.js';
import { builtCli } from './helpers/built-cli.js';
import { runCliAsync } from './helpers/run-cli-async.js';
import { TEST_PATH } from './helpers/test-path.js';

/** Tampering, the missing-sandbox path and the opt-out, through `scratchpad run` (issue 7). */

let cli: string;
const roots: string[] = [];

beforeAll(() => {
  cli = builtCli();
}, 120_000);
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

interface Home {
  home: string;
  work: string;
  env: NodeJS.ProcessEnv;
  executors: string;
}

function createHome(config = ''): Home {
  const root = mkdtempSync(join(tmpdir(), 'scratchpad-sandbox-cli-'));
  roots.push(root);
  const home = join(root, 'home');
  const work = join(home, 'work');
  mkdirSync(work, { recursive: true });
  mkdirSync(join(home, '.config', 'scratchpad'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'scratchpad', 'config.toml'),
    `[runtime]\ncap_steps = 20\ncap_same_executor = 20\n\n[runtime.llm.fast]\nprovider = "openai"\nmodel = "m"\n${config}`,
  );
  writeFileSync(join(work, 'notes.md'), 'notes\n');
  const env: NodeJS.ProcessEnv = {
    PATH: TEST_PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    OPENAI_API_KEY: 'test',
  };
  return { home, work, env, executors: join(home, '.local', 'share', 'scratchpad', 'executors') };
}

function lastToolResult(request: FakeRequest): string {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  return String(messages[messages.length - 1]?.content ?? '');
}

function toolNames(request: FakeRequest): string[] {
  return (request.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
}

/** Runs one turn whose model makes `calls` one after the other; returns what the model saw after each. */
async function turn(
  home: Home,
  calls: Array<{ name: string; arguments: Record<string, unknown>; before?: () => void }>,
  options: { args?: string[]; env?: NodeJS.ProcessEnv; cwd?: string } = {},
) {
  const observations: string[] = [];
  let tools: string[] = [];
  const script: FakeScriptStep[] = calls.map((call, index) => (request: FakeRequest) => {
    if (index === 0) tools = toolNames(request);
    else observations.push(lastToolResult(request));
    call.before?.();
    return { toolCalls: [{ id: `call_${index}`, name: call.name, arguments: call.arguments }] };
  });
  script.push((request: FakeRequest) => {
    if (calls.length === 0) tools = toolNames(request);
    else observations.push(lastToolResult(request));
    return 'done';
  });
  const server = await startFakeOpenAI(script, { models: ['m'] });
  try {
    const result = await runCliAsync(
      cli,
      ['--json', 'run', 'list my files', '--quiet', '--provider', 'openai', ...(options.args ?? [])],
      {
        env: { ...home.env, ...options.env, OPENAI_BASE_URL: server.baseURL },
        cwd: options.cwd ?? home.work,
      },
    );
    const record = result.stdout ? JSON.parse(result.stdout) : undefined;
    return { result, record, observations, tools };
  } finally {
    await server.close();
  }
}

function digest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

describe('tampering with an executor (real CLI, real bubblewrap)', () => {
  it('a change between catalog load and call is refused, and the next turn discards the executor as tampered', async () => {
    const home = createHome();
    await turn(home, []); // installs and signs the shipped executors
    const file = join(home.executors, 'fs_list', 'index.mjs');
    const first = await turn(home, [
      {
        name: 'fs_list',
        arguments: { path: '.' },
        before: () =>
          appendFileSync(file, '\nconsole.log(JSON.stringify({ ok: true, content: "tampered" }));\n'),
      },
    ]);
    expect(first.observations[0]).toMatch(
      /Refused: fs_list was not run because its code changed after it was verified \(verified sha256:[0-9a-f]{64}, found sha256:[0-9a-f]{64}\)/,
    );
    expect(first.observations[0]).not.toContain('tampered"');
    expect(first.record.steps[0]).toMatchObject({
      outcome: 'refused',
      refused: 'tampered',
      sandbox: 'bubblewrap',
    });

    const second = await turn(home, []);
    expect(second.tools).not.toContain('fs_list');
    expect(second.record.discarded).toEqual([
      { dir: join(home.executors, 'fs_list'), reason: expect.stringMatching(/^code digest mismatch/) },
    ]);
  }, 60_000);

  it('through sandboxed steps: fs_write cannot reach the executor, `executor sign` refuses, the signed code still runs', async () => {
    const home = createHome();
    await turn(home, []);
    const folder = join(home.executors, 'fs_list');
    const before = digest(join(folder, 'index.mjs'));
    const key = digest(join(home.home, '.config', 'scratchpad', 'keys', 'executor-signing.key'));
    const run = await turn(home, [
      { name: 'fs_write', arguments: { path: join(folder, 'index.mjs'), content: 'console.log("evil")' } },
      { name: 'shell_exec', arguments: { command: `node ${cli} executor sign ${folder}` } },
      { name: 'shell_exec', arguments: { command: `node ${cli} executor keygen` } },
      { name: 'fs_list', arguments: { path: '.' } },
    ]);
    expect(run.observations[0]).toMatch(
      /^Error: \{"ok":false,"error":"(no such file or directory|WRITE_REFUSED: read-only file system)/,
    );
    expect(run.observations[1]).toMatch(
      /Refusing to sign an executor inside a sandbox \(the sandbox marker \/run\/scratchpad\/sandbox is present\)/,
    );
    expect(run.observations[2]).toMatch(/Refusing to create a signing key inside a sandbox/);
    expect(JSON.parse(run.observations[3] as string)).toMatchObject({ ok: true, content: 'notes.md\t6' });
    expect(digest(join(folder, 'index.mjs'))).toBe(before);
    expect(digest(join(home.home, '.config', 'scratchpad', 'keys', 'executor-signing.key'))).toBe(key);
    expect((await turn(home, [])).record.discarded).toEqual([]);
  }, 60_000);
});

describe('without a sandbox', () => {
  it('refuses every executor when bubblewrap is missing, and says what to install', async () => {
    const home = createHome();
    const run = await turn(home, [{ name: 'fs_list', arguments: { path: '.' } }], {
      env: { SCRATCHPAD_BWRAP: '/nonexistent/bwrap' },
    });
    expect(run.observations[0]).toMatch(
      /Refused: fs_list was not run\. No sandbox: bubblewrap is not installed at \/nonexistent\/bwrap\. Install bubblewrap \(Debian\/Ubuntu: `apt-get install bubblewrap`/,
    );
    expect(run.observations[0]).toMatch(/--no-sandbox/);
    expect(run.result.stderr).toMatch(
      /^scratchpad run: No sandbox: bubblewrap is not installed at \/nonexistent\/bwrap/,
    );
    expect(run.record.steps[0]).toMatchObject({
      outcome: 'refused',
      refused: 'sandbox',
      sandbox: 'unavailable',
    });
  }, 60_000);

  it('the config file can point at a missing bubblewrap too', async () => {
    const home = createHome('\n[runtime.sandbox]\nbwrap = "/nonexistent/bwrap"\n');
    const run = await turn(home, [{ name: 'fs_read', arguments: { path: 'notes.md' } }]);
    expect(run.record.steps[0]).toMatchObject({ outcome: 'refused', sandbox: 'unavailable' });
  }, 60_000);

  it('--no-sandbox and [runtime.sandbox] enabled = false run executors, and the turn log says sandbox: "off"', async () => {
    for (const [home, args] of [
      [createHome(), ['--no-sandbox']],
      [createHome('\n[runtime.sandbox]\nenabled = false\n'), []],
    ] as const) {
      const run = await turn(
        home,
        [
          { name: 'fs_list', arguments: { path: '.' } },
          { name: 'fs_read', arguments: { path: 'notes.md' } },
        ],
        { args: [...args], env: { SCRATCHPAD_BWRAP: '/nonexistent/bwrap' } },
      );
      expect(run.result.stderr).toMatch(/^scratchpad run: executors ran without a sandbox/);
      expect(
        run.record.steps.map((step: { sandbox: string; outcome: string }) => [step.outcome, step.sandbox]),
      ).toEqual([
        ['executed', 'off'],
        ['executed', 'off'],
      ]);
      expect(JSON.parse(run.observations[1] as string)).toMatchObject({ ok: true, content: 'notes\n' });
    }
  }, 60_000);

  it('records the sandbox of each step when it is on, and refuses to start in the home folder', async () => {
    const home = createHome();
    const run = await turn(home, [{ name: 'fs_read', arguments: { path: 'notes.md' } }]);
    expect(run.result.stderr).toBe('');
    expect(run.record.steps[0]).toMatchObject({
      outcome: 'executed',
      sandbox: 'bubblewrap',
      run: { network: false },
    });

    const refused = await turn(home, [], { cwd: home.home });
    expect(refused.result.code).toBe(1);
    expect(refused.result.stderr).toMatch(/is your home folder, which is never writable by executors/);
    expect(refused.result.stderr).toMatch(/Start `scratchpad run` in a project folder/);
    expect(readdirSync(join(home.home, '.local', 'share', 'scratchpad', 'turns'))).toHaveLength(1);
  }, 60_000);
});
