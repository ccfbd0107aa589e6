import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeCodeDigest } from './code-digest.js';
import { type Executor, toExecutor } from './executor.js';
import { runExecutor, runExecutorDetailed } from './run-executor.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'scratchpad-run-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** An executor whose index.mjs is `code`, with the digest of that code (the loader checks signatures). */
async function scriptExecutor(
  name: string,
  code: string,
  limits: Executor['limits'] = {},
): Promise<Executor> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'index.mjs'), code);
  const manifest = {
    name,
    description: name,
    affinity: [],
    capabilities: [],
    args: { type: 'object' },
    entry: ['node', './index.mjs'],
    limits,
  };
  const digest = await computeCodeDigest(dir);
  if (!digest.ok) throw new Error(digest.reason);
  return toExecutor(manifest, dir, '0'.repeat(16), digest.digest);
}

const READ_ARGS = `let text = ''; for await (const chunk of process.stdin) text += chunk; const args = JSON.parse(text);`;

/** Alive and not a zombie (an orphan killed with its group waits for init to reap it, which may take a while). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const status = readFileSync(`/proc/${pid}/stat`, { encoding: 'utf8', flag: 'r' });
  return !/^\d+ \(.*\) Z/.test(status);
}

async function waitUntilDead(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('runExecutor', () => {
  it('passes the arguments as JSON on stdin and returns the printed object', async () => {
    const executor = await scriptExecutor(
      'echo_args',
      `${READ_ARGS} process.stdout.write(JSON.stringify({ ok: true, content: args.text.toUpperCase(), metadata: { keys: Object.keys(args) }, extra: 1 }) + '\\n');`,
    );
    const outcome = await runExecutor(executor, { text: 'héllo', nested: { a: [1, 2] } });
    expect(outcome).toEqual({ ok: true, content: 'HÉLLO', metadata: { keys: ['text', 'nested'] } });
  });

  it('runs in the given working directory', async () => {
    const executor = await scriptExecutor(
      'cwd',
      `process.stdout.write(JSON.stringify({ ok: true, content: process.cwd() }));`,
    );
    expect(await runExecutor(executor, {}, { cwd: root })).toEqual({ ok: true, content: root });
  });

  it('turns a crash into {ok: false} with the stderr', async () => {
    const executor = await scriptExecutor('crash', `throw new Error('boom in executor');`);
    const run = await runExecutorDetailed(executor, {});
    expect(run.outcome.ok).toBe(false);
    expect(run.outcome.error).toMatch(
      /^non-JSON output \(exit code 1\): \(empty\); stderr: .*boom in executor/s,
    );
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('boom in executor');
  });

  it('turns non-JSON stdout into {ok: false} quoting what was printed', async () => {
    const executor = await scriptExecutor(
      'chatty',
      `console.log('hello, not json'); console.error('a warning');`,
    );
    const outcome = await runExecutor(executor, {});
    expect(outcome).toEqual({ ok: false, error: 'non-JSON output: hello, not json; stderr: a warning' });
  });

  it('rejects JSON that is not an outcome object', async () => {
    const array = await scriptExecutor('array', `process.stdout.write('[1,2]');`);
    expect((await runExecutor(array, {})).error).toMatch(/^invalid output: expected one JSON object/);
    const noOk = await scriptExecutor('no_ok', `process.stdout.write('{"content":"x"}');`);
    expect((await runExecutor(noOk, {})).error).toMatch(/^invalid output/);
  });

  it('gives a failure without a message a generic error text', async () => {
    const executor = await scriptExecutor('silent_failure', `process.stdout.write('{"ok":false}');`);
    expect(await runExecutor(executor, {})).toEqual({
      ok: false,
      error: 'the executor reported a failure without an error message',
    });
  });

  it('kills the whole process group on timeout', async () => {
    const pidFile = join(root, 'timeout-grandchild.pid');
    const executor = await scriptExecutor(
      'hang',
      `import { spawn } from 'node:child_process'; import { writeFileSync } from 'node:fs';
       const child = spawn('sleep', ['1000'], { stdio: 'ignore' });
       writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
       console.error('started sleeping');
       setInterval(() => {}, 1000);`,
    );
    // Generous, so a loaded machine still starts the executor and its grandchild before the deadline.
    const run = await runExecutorDetailed(executor, {}, { timeoutMs: 3_000 });
    expect(run.timedOut).toBe(true);
    expect(run.outcome).toEqual({ ok: false, error: 'timed out after 3000 ms; stderr: started sleeping' });
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  it('takes the timeout from the manifest limits when the options do not set one', async () => {
    const executor = await scriptExecutor('hang_manifest', `setInterval(() => {}, 1000);`, {
      timeout_ms: 300,
    });
    expect((await runExecutor(executor, {})).error).toMatch(/^timed out after 300 ms/);
  });

  it('ends background processes left behind by an executor that exited', async () => {
    const pidFile = join(root, 'background.pid');
    const executor = await scriptExecutor(
      'leaves_background',
      `import { spawn } from 'node:child_process'; import { writeFileSync } from 'node:fs';
       const child = spawn('sleep', ['1000'], { stdio: 'inherit' });
       child.unref();
       writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
       process.stdout.write('{"ok":true,"content":"done"}');`,
    );
    const run = await runExecutorDetailed(executor, {}, { timeoutMs: 20_000 });
    expect(run.outcome).toEqual({ ok: true, content: 'done' });
    expect(run.timedOut).toBe(false);
    expect(await waitUntilDead(Number(await readFile(pidFile, 'utf8')))).toBe(true);
  });

  it('caps the output and kills the executor when it prints too much', async () => {
    const executor = await scriptExecutor(
      'flood',
      `const line = 'x'.repeat(1024); for (let i = 0; i < 100000; i += 1) { if (!process.stdout.write(line)) await new Promise((r) => process.stdout.once('drain', r)); }`,
    );
    const run = await runExecutorDetailed(executor, {}, { maxOutputBytes: 64 * 1024, timeoutMs: 20_000 });
    expect(run.outputCapped).toBe(true);
    expect(run.outcome).toEqual({ ok: false, error: 'output exceeded 65536 bytes; stderr: (empty)' });
  });

  it('scrubs the environment: secrets in the parent are not visible, allowlisted variables and grants are', async () => {
    process.env.SCRATCHPAD_TEST_SECRET_API_KEY = 'sk-should-not-leak';
    try {
      const executor = await scriptExecutor(
        'env_dump',
        `process.stdout.write(JSON.stringify({ ok: true, content: process.env }));`,
      );
      const outcome = await runExecutor(executor, {}, { env: { GRANTED_TOKEN: 'granted' } });
      const seen = outcome.content as Record<string, string>;
      expect(seen.SCRATCHPAD_TEST_SECRET_API_KEY).toBeUndefined();
      expect(JSON.stringify(seen)).not.toContain('sk-should-not-leak');
      expect(seen.PATH).toBe(process.env.PATH);
      expect(seen.GRANTED_TOKEN).toBe('granted');
      expect(seen.NODE_OPTIONS).toBeUndefined();
    } finally {
      delete process.env.SCRATCHPAD_TEST_SECRET_API_KEY;
    }
  });

  it('reports an entry command that cannot start', async () => {
    const executor = {
      ...(await scriptExecutor('missing_program', '')),
      entry: ['definitely-not-a-program-xyz'],
    };
    const outcome = await runExecutor(executor, {});
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/could not start executor missing_program: .*ENOENT/);
  });

  it('stops on abort', async () => {
    const executor = await scriptExecutor('abortable', `setInterval(() => {}, 1000);`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const run = await runExecutorDetailed(executor, {}, { signal: controller.signal, timeoutMs: 20_000 });
    expect(run.aborted).toBe(true);
    expect(run.outcome.error).toMatch(/^aborted/);
  });

  it('survives an executor that exits without reading its arguments', async () => {
    const executor = await scriptExecutor(
      'no_stdin',
      `process.stdout.write('{"ok":true}'); process.exit(0);`,
    );
    expect(await runExecutor(executor, { big: 'x'.repeat(2_000_000) })).toEqual({ ok: true });
  });
});
