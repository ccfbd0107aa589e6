import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../executors/executor.js';
import { runExecutorDetailed } from '../executors/run-executor.js';
import { createSandbox } from './create-sandbox.js';
import type { Sandbox } from './sandbox.js';
import { defaultSandboxSettings } from './sandbox-settings.js';
import { sandboxTestHome } from './test-fixtures/sandbox-test-home.js';

// Issue 26: /dev/shm was half the RAM and memory and process counts were unlimited. Small limits here, so that a
// fork bomb, a memory hog and a file writer hit them at once; the host must stay usable meanwhile.
const LIMITS = { memoryMb: 256, processes: 64, fileSizeMb: 8 };
let root: string;
let work: string;
let env: Record<string, string>;
let sandbox: Sandbox;
const executors = new Map<string, Executor>();

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'scratchpad-limits-')));
  const home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(work, { recursive: true });
  const testHome = await sandboxTestHome(home);
  env = testHome.env;
  for (const [name, executor] of testHome.executors) executors.set(name, executor);
  sandbox = await createSandbox({
    settings: { ...defaultSandboxSettings(), limits: LIMITS },
    cwd: work,
    env,
    scratchpadPaths: testHome.scratchpadPaths,
  });
}, 60_000);

afterAll(() => rm(root, { recursive: true, force: true }));

function run(name: string, args: Record<string, unknown>) {
  return runExecutorDetailed(executors.get(name) as Executor, args, { cwd: work, sandbox, parentEnv: env });
}

/** Everything the model reads of an outcome. */
function observation(outcome: { content?: unknown; error?: string; metadata?: unknown }): string {
  return `${String(outcome.content ?? '')}\n${outcome.error ?? ''}\n${JSON.stringify(outcome.metadata ?? {})}`;
}

/** Starts a process on the host and waits for it: the host can still make processes. */
function hostRuns(): Promise<number | null> {
  return new Promise((resolve) => spawn('true').on('exit', (code) => resolve(code)));
}

describe('per-call limits (real bwrap)', () => {
  it('says what they are', () => {
    expect(sandbox.description).toContain(
      'limits per call: 256 MiB of memory, 64 processes, files up to 8 MiB',
    );
  });

  it('stops a fork bomb at the process limit with a clear observation while the host keeps working', async () => {
    const bomb = run('shell_exec', {
      command: 'bomb() { bomb | bomb & }; bomb; sleep 3',
      timeout_seconds: 20,
    });
    expect(await hostRuns()).toBe(0);
    const result = await bomb;
    expect(observation(result.outcome)).toMatch(
      /the call reached its limit of 64 processes \(\[runtime\.sandbox\] processes\): \d+ attempts to start one more were refused/,
    );
    expect(await hostRuns()).toBe(0);
  }, 60_000);

  it('stops a memory hog at the memory limit with a clear observation', async () => {
    const result = await run('shell_exec', {
      command: 'node -e "const kept = []; for (;;) kept.push(Buffer.alloc(16 << 20, 1))"',
      timeout_seconds: 60,
    });
    expect(result.outcome.ok).toBe(false);
    expect(result.outcome.error).toMatch(
      /the call reached its memory limit of 256 MiB \(\[runtime\.sandbox\] memory_mb\): the kernel killed \d+ of its processes/,
    );
    expect(await hostRuns()).toBe(0);
  }, 90_000);

  it('stops a file at the size limit with a clear observation', async () => {
    const result = await run('shell_exec', { command: 'head -c 20000000 /dev/zero > big.bin' });
    expect(result.outcome.ok).toBe(false);
    expect(result.outcome.error).toMatch(
      /a file reached the size limit of 8 MiB per file \(\[runtime\.sandbox\] file_size_mb\)/,
    );
    expect(statSync(join(work, 'big.bin')).size).toBe(8 * 1024 * 1024);
    const written = await run('fs_write', { path: 'big.txt', content: 'x'.repeat(9 * 1024 * 1024) });
    expect(written.outcome.ok).toBe(false);
    expect(written.outcome.error).toMatch(/a file reached the size limit of 8 MiB/);
    expect(existsSync(join(work, 'big.txt'))).toBe(true);
    expect(execFileSync('true').length).toBe(0);
  }, 60_000);
});
