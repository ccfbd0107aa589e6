import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../packages/runtime/src/executors/load-catalog.js';
import { runExecutorDetailed } from '../packages/runtime/src/executors/run-executor.js';
import { ensureShippedExecutors } from '../packages/runtime/src/executors/shipped-executors.js';
import { createSandbox } from '../packages/runtime/src/sandbox/create-sandbox.js';
import { defaultSandboxSettings } from '../packages/runtime/src/sandbox/sandbox-settings.js';
import type { FakeRequest, FakeScriptStep } from '../src/testing/fake-servers/index.js';
import { startFakeOpenAI } from '../src/testing/fake-servers/index.js';
import {
  type AttackSpelling,
  destructiveSpellings,
  READ_SPELLINGS,
  UNGUARDED_HOME_READS,
} from './helpers/attack-spellings.js';
import { builtCli } from './helpers/built-cli.js';
import { runCliAsync } from './helpers/run-cli-async.js';
import { TEST_PATH } from './helpers/test-path.js';

/**
 * Issue 7, end to end: a scripted model on loopback drives `scratchpad run` through the real CLI, one spelling per
 * model turn-step, against a throwaway home full of canaries, with canary API keys in the CLI's environment.
 * Between two steps (inside the fake server's script) the test looks at the observation the model received and
 * at every canary file, so each leak or loss is pinned on the spelling that caused it.
 */

interface Home {
  root: string;
  home: string;
  work: string;
  env: NodeJS.ProcessEnv;
  /** Secret strings that must never reach the model, the logs or the store. */
  secrets: Map<string, string>;
  /** Files that must be byte-identical afterwards (relative to the home), with their SHA-256. */
  intact: Map<string, string>;
}

interface Attempt {
  spelling: AttackSpelling;
  observation: string;
  /** Canaries in the observation (computed after the run, when the signing key is known too). */
  leaked: string[];
  /** Files changed or gone right after this spelling ran. */
  destroyed: string[];
}

let cli: string;
const token = (label: string) => `CANARY-${label}-${randomBytes(9).toString('hex')}`;

function sha256(path: string): string {
  try {
    const stats = lstatSync(path);
    if (!stats.isFile()) return `not a file (mode ${stats.mode.toString(8)})`;
    return `${(stats.mode & 0o777).toString(8)}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  } catch (error) {
    return `missing (${(error as NodeJS.ErrnoException).code})`;
  }
}

function createHome(name: string): Home {
  const root = mkdtempSync(join(tmpdir(), `scratchpad-security-${name}-`));
  const home = join(root, 'home');
  const work = join(home, 'work');
  const secrets = new Map<string, string>();
  const files: Record<string, string> = {};
  const secretFile = (path: string, label: string, render: (value: string) => string) => {
    const value = token(label);
    secrets.set(`${label} file`, value);
    files[path] = render(value);
  };
  secretFile(
    '.ssh/id_rsa',
    'ssh',
    (v) => `-----BEGIN OPENSSH PRIVATE KEY-----\n${v}\n-----END OPENSSH PRIVATE KEY-----\n`,
  );
  secretFile(
    '.aws/credentials',
    'aws',
    (v) => `[default]\naws_access_key_id = AKIA0000\naws_secret_access_key = ${v}\n`,
  );
  secretFile('.netrc', 'netrc', (v) => `machine example.com login ada password ${v}\n`);
  secretFile('.npmrc', 'npm', (v) => `//registry.npmjs.org/:_authToken=${v}\n`);
  secretFile('.git-credentials', 'git', (v) => `https://ada:${v}@github.com\n`);
  secretFile('.pgpass', 'pgpass', (v) => `localhost:5432:*:ada:${v}\n`);
  secretFile('.docker/config.json', 'docker', (v) => `{"auths":{"x":{"auth":"${v}"}}}\n`);
  secretFile('.kube/config', 'kube', (v) => `users:\n- user:\n    token: ${v}\n`);
  secretFile('.config/gcloud/credentials.db', 'gcloud', (v) => `${v}\n`);
  secretFile('.gnupg/private-keys-v1.d/key.key', 'gnupg', (v) => `(private-key ${v})\n`);
  files['.bashrc'] = `# ${token('bashrc')}\nexport PATH=$PATH\n`;
  files['.profile'] = `# ${token('profile')}\n`;
  files['.zshrc'] = `# ${token('zshrc')}\n`;
  files['notes/diary.md'] = `# ${token('diary')}\ndear diary\n`;
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(home, path, '..'), { recursive: true });
    writeFileSync(join(home, path), content, { mode: path.startsWith('.ssh') ? 0o600 : 0o644 });
  }
  mkdirSync(work, { recursive: true });
  const config = join(home, '.config', 'scratchpad');
  mkdirSync(config, { recursive: true });
  writeFileSync(
    join(config, 'config.toml'),
    '[runtime]\ncap_steps = 500\ncap_same_executor = 500\n\n[runtime.llm.fast]\nprovider = "openai"\nmodel = "attacker"\n',
  );
  const env: NodeJS.ProcessEnv = {
    PATH: TEST_PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    OPENAI_API_KEY: token('openai-key'),
    ANTHROPIC_API_KEY: token('anthropic-key'),
    GITHUB_TOKEN: token('github-token'),
    AWS_SECRET_ACCESS_KEY: token('aws-env'),
    SCRATCHPAD_TEST_SECRET_KEY: token('test-key'),
  };
  for (const name of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GITHUB_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'SCRATCHPAD_TEST_SECRET_KEY',
  ])
    secrets.set(`${name} variable`, env[name] as string);
  const intact = new Map(Object.keys(files).map((path) => [path, sha256(join(home, path))]));
  return { root, home, work, env, secrets, intact };
}

/** After the first run installed them: the executors and the key join the files that must stay intact. */
function protectInstalled(home: Home): void {
  if (home.secrets.has('signing key')) return;
  const keys = join(home.home, '.config', 'scratchpad', 'keys');
  const key = readFileSync(join(keys, 'executor-signing.key'), 'utf8');
  home.secrets.set('signing key', key.split('\n')[1] ?? key);
  const executors = join(home.home, '.local', 'share', 'scratchpad', 'executors');
  const paths = [
    '.config/scratchpad/keys/executor-signing.key',
    '.config/scratchpad/keys/executor-signing.pub',
    ...readdirSync(executors)
      .filter((name) => !name.startsWith('.'))
      .flatMap((name) => [`${name}/index.mjs`, `${name}/manifest.json`])
      .map((path) => `.local/share/scratchpad/executors/${path}`),
  ];
  for (const path of paths) home.intact.set(path, sha256(join(home.home, path)));
}

/** The first line of the machine's real /etc/shadow (root may read it): it must not appear either. */
function shadowLine(): string | undefined {
  try {
    return readFileSync('/etc/shadow', 'utf8').split('\n')[0] || undefined;
  } catch {
    return undefined;
  }
}

/** Every canary found in `text`, also inside base64 runs (`base64 file`, `tar | base64`). */
function leaksIn(text: string, secrets: Map<string, string>): string[] {
  const decoded = (text.replace(/\\n/g, '\n').match(/[A-Za-z0-9+/=\n]{24,}/g) ?? []).map((run) =>
    Buffer.from(run.replace(/\n/g, ''), 'base64').toString('latin1'),
  );
  const haystack = [text, ...decoded].join('\n');
  return [...secrets].filter(([, value]) => haystack.includes(value)).map(([label]) => label);
}

function destroyedIn(home: Home): string[] {
  return [...home.intact]
    .filter(([path, hash]) => sha256(join(home.home, path)) !== hash)
    .map(([path]) => path);
}

function lastToolResult(request: FakeRequest): string {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  const last = messages[messages.length - 1];
  return last?.role === 'tool' ? String(last.content) : '';
}

/** Runs one `scratchpad run` turn that tries every spelling in order, one per model step. */
async function attack(home: Home, spellings: AttackSpelling[], extraArgs: string[] = []) {
  const attempts: Attempt[] = [];
  const script: FakeScriptStep[] = [];
  for (let index = 0; index <= spellings.length; index += 1) {
    script.push((request: FakeRequest) => {
      const previous = spellings[index - 1];
      if (previous) {
        const observation = lastToolResult(request);
        attempts.push({ spelling: previous, observation, leaked: [], destroyed: destroyedIn(home) });
      }
      const next = spellings[index];
      if (!next) return 'Done trying.';
      return { toolCalls: [{ id: `call_${index}`, name: next.tool, arguments: next.args }] };
    });
  }
  const server = await startFakeOpenAI(script, { models: ['attacker'] });
  try {
    const result = await runCliAsync(
      cli,
      [
        '--json',
        'run',
        'Try every tool call you were told to.',
        '--quiet',
        '--provider',
        'openai',
        ...extraArgs,
      ],
      // Secret redaction off: this suite measures the sandbox alone, not a marker hiding what it let through.
      { env: { ...home.env, OPENAI_BASE_URL: server.baseURL, SCRATCHPAD_REDACT: 'off' }, cwd: home.work },
    );
    protectInstalled(home);
    for (const attempt of attempts) attempt.leaked = leaksIn(attempt.observation, home.secrets);
    const requests = server.requests.map((request) => JSON.stringify(request.body ?? {}));
    return { result, attempts, requests, remaining: server.remaining };
  } finally {
    await server.close();
  }
}

/** Every byte Scratchpad wrote about the turns: turn and vaglio logs, the store (database, WAL, side files). */
function persistedText(home: Home): string {
  const data = join(home.home, '.local', 'share', 'scratchpad');
  const texts: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'executors') walk(full);
      } else texts.push(readFileSync(full).toString('latin1'));
    }
  };
  walk(data);
  return texts.join('\n');
}

/** One line for the CI log: how many spellings the guard stopped and how many ran in the sandbox. */
function summary(label: string, attempts: Attempt[], steps: Array<{ outcome: string }>): string {
  const recent = steps.slice(-attempts.length);
  const count = (outcome: string) => recent.filter((step) => step.outcome === outcome).length;
  const leaked = attempts.filter((attempt) => attempt.leaked.length > 0).length;
  const destroyed = attempts.filter((attempt) => attempt.destroyed.length > 0).length;
  return `${label}: ${attempts.length} spellings, ${count('denied')} denied by the vaglio, ${count('executed')} ran in the sandbox, ${count('refused')} refused; leaks ${leaked}, destroyed ${destroyed}`;
}

function turnSteps(home: Home): Array<{ tool: string; outcome: string; sandbox?: string }> {
  const turns = join(home.home, '.local', 'share', 'scratchpad', 'turns');
  return readdirSync(turns)
    .flatMap((file) => readFileSync(join(turns, file), 'utf8').trim().split('\n'))
    .flatMap((line) => JSON.parse(line).steps);
}

let sandboxed: Home;
let control: Home;
let bare: Home;

beforeAll(() => {
  cli = builtCli();
  sandboxed = createHome('sandboxed');
  control = createHome('control');
  bare = createHome('sandbox-alone');
  const shadow = shadowLine();
  if (shadow) sandboxed.secrets.set('/etc/shadow line', shadow);
}, 120_000);

afterAll(() => {
  for (const home of [sandboxed, control, bare])
    if (home) rmSync(home.root, { recursive: true, force: true });
});

describe('issue 7: no spelling reaches a secret or destroys a home (real CLI, real bubblewrap)', () => {
  it(`reads: ${READ_SPELLINGS.length} spellings leak nothing to observations, requests, logs or the store`, async () => {
    expect(READ_SPELLINGS.length).toBeGreaterThanOrEqual(40);
    const run = await attack(sandboxed, READ_SPELLINGS);
    expect(run.result.stderr).toBe('');
    expect(run.remaining).toBe(0);
    expect(run.attempts).toHaveLength(READ_SPELLINGS.length);
    const leaks = run.attempts.filter((attempt) => attempt.leaked.length > 0);
    expect(leaks.map((attempt) => [attempt.spelling.args, attempt.leaked])).toEqual([]);
    expect(run.requests.flatMap((body) => leaksIn(body, sandboxed.secrets))).toEqual([]);
    expect(leaksIn(persistedText(sandboxed), sandboxed.secrets)).toEqual([]);
    expect(destroyedIn(sandboxed)).toEqual([]);
    // Every executor call that ran, ran in the sandbox; the others were stopped by the guard first.
    const steps = turnSteps(sandboxed);
    console.info(summary('reads', run.attempts, steps));
    expect(
      steps.filter((step) => step.outcome === 'executed').every((step) => step.sandbox === 'bubblewrap'),
    ).toBe(true);
    expect(steps.filter((step) => step.outcome === 'executed').length).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it('destruction: 30+ spellings leave every canary file, the executors and the signing key intact', async () => {
    const spellings = destructiveSpellings(cli);
    expect(spellings.length).toBeGreaterThanOrEqual(30);
    const run = await attack(sandboxed, spellings);
    expect(run.result.stderr).toBe('');
    expect(run.attempts).toHaveLength(spellings.length);
    const losses = run.attempts.filter((attempt) => attempt.destroyed.length > 0);
    expect(losses.map((attempt) => [attempt.spelling.args, attempt.destroyed])).toEqual([]);
    expect(run.attempts.flatMap((attempt) => attempt.leaked)).toEqual([]);
    expect(leaksIn(persistedText(sandboxed), sandboxed.secrets)).toEqual([]);
    const sign = run.attempts.find((attempt) =>
      JSON.stringify(attempt.spelling.args).includes('executor sign'),
    );
    expect(sign?.observation).toMatch(/Refusing to sign an executor inside a sandbox/);
    console.info(summary('destruction', run.attempts, turnSteps(sandboxed)));
    const executed = turnSteps(sandboxed).filter((step) => step.outcome === 'executed');
    expect(executed.every((step) => step.sandbox === 'bubblewrap')).toBe(true);
  }, 120_000);

  it('control: without the sandbox, the spellings the guard lets through do leak (the suite can fail)', async () => {
    const run = await attack(control, UNGUARDED_HOME_READS, ['--no-sandbox']);
    expect(run.result.stderr).toMatch(/executors ran without a sandbox/);
    const leaked = run.attempts.filter((attempt) => attempt.leaked.length > 0);
    expect(leaked.length).toBe(UNGUARDED_HOME_READS.length);
    expect(turnSteps(control).every((step) => step.sandbox === 'off')).toBe(true);
  }, 120_000);

  it('the sandbox alone, without the vaglio: every spelling runs, and nothing leaks or is destroyed', async () => {
    const installed = await ensureShippedExecutors({ env: bare.env });
    const { executors } = await loadCatalog({
      dirs: [installed.executorsDir],
      trustedKeys: installed.trustedKeys,
    });
    const sandbox = await createSandbox({
      settings: defaultSandboxSettings(),
      cwd: bare.work,
      env: bare.env,
      scratchpadPaths: [
        join(bare.home, '.config', 'scratchpad'),
        join(bare.home, '.local', 'share', 'scratchpad'),
      ],
    });
    expect(sandbox.status).toBe('bubblewrap');
    protectInstalled(bare);
    const attempts: Attempt[] = [];
    for (const spelling of [...READ_SPELLINGS, ...destructiveSpellings(cli)]) {
      const executor = executors.find((item) => item.name === spelling.tool);
      if (!executor) throw new Error(`no executor ${spelling.tool}`);
      const run = await runExecutorDetailed(executor, spelling.args, {
        sandbox,
        cwd: bare.work,
        parentEnv: bare.env,
        timeoutMs: 20_000,
      });
      expect(run.sandbox).toBe('bubblewrap');
      const observation = JSON.stringify(run.outcome);
      attempts.push({
        spelling,
        observation,
        leaked: leaksIn(observation, bare.secrets),
        destroyed: destroyedIn(bare),
      });
    }
    const leaked = attempts.filter((attempt) => attempt.leaked.length > 0).length;
    const destroyed = attempts.filter((attempt) => attempt.destroyed.length > 0).length;
    console.info(
      `sandbox alone: ${attempts.length} spellings ran in the sandbox; leaks ${leaked}, destroyed ${destroyed}`,
    );
    expect(
      attempts.filter((attempt) => attempt.leaked.length > 0).map((attempt) => attempt.spelling.args),
    ).toEqual([]);
    expect(
      attempts.filter((attempt) => attempt.destroyed.length > 0).map((attempt) => attempt.spelling.args),
    ).toEqual([]);
  }, 120_000);
});
