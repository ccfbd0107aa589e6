import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeCodeDigest } from '../executors/code-digest.js';
import { type Executor, toExecutor } from '../executors/executor.js';
import { runExecutorDetailed } from '../executors/run-executor.js';
import { createSandbox } from './create-sandbox.js';
import { defaultSandboxSettings } from './sandbox-settings.js';

let root: string;
let executor: Executor;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'scratchpad-create-sandbox-'));
  const dir = join(root, 'echo');
  await mkdir(join(root, 'work'));
  await mkdir(dir);
  await writeFile(join(dir, 'index.mjs'), 'console.log(JSON.stringify({ ok: true, content: "ran" }));\n');
  const manifest = {
    name: 'echo',
    description: 'echo',
    affinity: [],
    capabilities: ['fs:read'],
    args: { type: 'object' },
    entry: ['node', './index.mjs'],
  };
  const digest = await computeCodeDigest(dir);
  if (!digest.ok) throw new Error(digest.reason);
  executor = toExecutor(manifest, dir, '0'.repeat(16), digest.digest);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('createSandbox', () => {
  it('is off when the settings turn it off, and the call then runs unsandboxed', async () => {
    const sandbox = await createSandbox({
      settings: { ...defaultSandboxSettings(), enabled: false },
      cwd: join(root, 'work'),
      scratchpadPaths: [],
    });
    expect(sandbox.status).toBe('off');
    const run = await runExecutorDetailed(executor, {}, { sandbox });
    expect(run).toMatchObject({ sandbox: 'off', outcome: { ok: true, content: 'ran' } });
  });

  it('refuses every call, saying what to install, when bubblewrap is missing (config or SCRATCHPAD_BWRAP)', async () => {
    for (const [settings, env] of [
      [{ ...defaultSandboxSettings(), bwrapPath: '/nonexistent/bwrap' }, {}],
      [defaultSandboxSettings(), { SCRATCHPAD_BWRAP: '/nonexistent/bwrap' }],
    ] as const) {
      const sandbox = await createSandbox({ settings, env, cwd: join(root, 'work'), scratchpadPaths: [] });
      expect(sandbox.status).toBe('unavailable');
      expect(sandbox.description).toMatch(/bubblewrap is not installed at \/nonexistent\/bwrap/);
      const run = await runExecutorDetailed(executor, {}, { sandbox });
      expect(run.refused).toBe('sandbox');
      expect(run.exitCode).toBeNull();
      expect(run.outcome.error).toMatch(
        /^Refused: echo was not run\. No sandbox: bubblewrap is not installed/,
      );
      expect(run.outcome.error).toMatch(/apt-get install bubblewrap/);
      expect(run.outcome.error).toMatch(/--no-sandbox/);
    }
  });

  it('is bubblewrap when it works here', async () => {
    const sandbox = await createSandbox({
      settings: defaultSandboxSettings(),
      cwd: join(root, 'work'),
      scratchpadPaths: [],
    });
    expect(sandbox.status).toBe('bubblewrap');
    expect(sandbox.description).toMatch(
      /^bubblewrap \S+ \(write: .*\/work; everything else read-only, protected locations hidden; temporary folder \/run\/scratchpad\/tmp per call; no unix sockets; limits per call: 4096 MiB of memory, 1024 processes, files up to 4096 MiB \(.*\)\)$/,
    );
    const run = await runExecutorDetailed(executor, {}, { sandbox, cwd: join(root, 'work') });
    expect(run).toMatchObject({
      sandbox: 'bubblewrap',
      network: false,
      outcome: { ok: true, content: 'ran' },
    });
  });
});
