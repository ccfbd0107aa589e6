import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createNoSandbox } from '../sandbox/no-sandbox.js';
import type { Sandbox, SandboxPlan, SandboxStatus } from '../sandbox/sandbox.js';
import type { Executor } from './executor.js';
import { scrubEnvironment } from './executor-environment.js';
import { type ExecutorOutcome, parseExecutorOutput } from './executor-outcome.js';
import { stageExecutor } from './stage-executor.js';
import type { EnvironmentVariables } from './xdg-dirs.js';

/** Default wall-clock budget of one run when neither the options nor the manifest set one. */
export const DEFAULT_EXECUTOR_TIMEOUT_MS = 30_000;
/** Default cap on an executor's stdout when neither the options nor the manifest set one. */
export const DEFAULT_EXECUTOR_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** How much stderr is kept (the head: where a crash prints its error message). */
const STDERR_KEEP_BYTES = 16 * 1024;
/** How much of stderr and stdout goes into an error message the model reads. */
const ERROR_EXCERPT_CHARS = 2_000;
/** After the executor exits, how long to wait for its pipes to close before giving up on them. */
const PIPE_DRAIN_MS = 1_000;

/** Options for {@link runExecutor}. */
export interface RunExecutorOptions {
  /** Wall-clock budget; default the manifest's `limits.timeout_ms`, else 30 s. The process group is killed. */
  timeoutMs?: number;
  /** Cap on stdout bytes; default the manifest's `limits.max_output_bytes`, else 16 MiB. */
  maxOutputBytes?: number;
  /** Working directory of the executor (relative paths in its arguments resolve here); default `process.cwd()`. */
  cwd?: string;
  /** Environment to scrub (default `process.env`): only the allowlist passes. */
  parentEnv?: EnvironmentVariables;
  /** Variables granted explicitly, added after scrubbing (e.g. one API key for one executor). */
  env?: Readonly<Record<string, string>>;
  /** The operating-system boundary of the call (`createSandbox`); default none (`status: 'off'`). */
  sandbox?: Sandbox;
  /** Where each call's verified copy of the code is staged; default the OS temporary folder. */
  stagingRoot?: string;
  signal?: AbortSignal;
}

/** Everything that happened in one run: the outcome for the planner plus facts for the turn log. */
export interface ExecutorRun {
  outcome: ExecutorOutcome;
  exitCode: number | null;
  /** The signal that ended the process, if any. */
  exitSignal: string | null;
  timedOut: boolean;
  /** True when stdout passed the cap and the run was cut short. */
  outputCapped: boolean;
  aborted: boolean;
  durationMs: number;
  /** The first 16 KiB of stderr. */
  stderr: string;
  /** How the call was isolated (absent when a custom `execute` ran it). */
  sandbox?: SandboxStatus;
  /** Whether the call could reach the network. */
  network?: boolean;
  /**
   * Set when nothing was started: `tampered` (the code no longer has the verified digest) or `sandbox` (no
   * sandbox and no opt-out). The outcome says why.
   */
  refused?: 'tampered' | 'sandbox';
}

/**
 * Runs `executor` as a subprocess in its own process group, from a private verified copy of its code, inside
 * `options.sandbox` when given: its arguments go to stdin as one JSON object, its stdout must be one JSON object
 * `{ok, content?, metadata?, error?}`. The environment is scrubbed to an allowlist. Code that changed since it was
 * verified, or a sandbox that cannot run the call, is refused before anything starts. A crash, non-JSON stdout, a
 * timeout, an output over the cap or an abort becomes `{ok: false, error}` with the stderr excerpt: this function
 * does not throw for anything the executor does. When the executor exits, whatever it left running in its process
 * group is killed too.
 */
export async function runExecutor(
  executor: Executor,
  args: unknown,
  options: RunExecutorOptions = {},
): Promise<ExecutorOutcome> {
  return (await runExecutorDetailed(executor, args, options)).outcome;
}

/** {@link runExecutor} with the run's facts (exit code, signal, timing, stderr, sandbox) for logs. */
export async function runExecutorDetailed(
  executor: Executor,
  args: unknown,
  options: RunExecutorOptions = {},
): Promise<ExecutorRun> {
  const started = performance.now();
  const sandbox = options.sandbox ?? createNoSandbox();
  const refused = (refusal: 'tampered' | 'sandbox', reason: string): ExecutorRun => ({
    outcome: { ok: false, error: reason },
    exitCode: null,
    exitSignal: null,
    timedOut: false,
    outputCapped: false,
    aborted: false,
    durationMs: performance.now() - started,
    stderr: '',
    sandbox: sandbox.status,
    network: false,
    refused: refusal,
  });
  const staged = await stageExecutor(executor, options.stagingRoot);
  if (!staged.ok) return refused('tampered', staged.reason);
  try {
    const plan = await sandbox
      .plan({
        name: executor.name,
        capabilities: executor.capabilities,
        entry: executor.entry,
        stagingDir: staged.stagingDir,
        codeDir: staged.codeDir,
        cwd: options.cwd ?? process.cwd(),
        env: scrubEnvironment(options.parentEnv ?? process.env, options.env),
      })
      .catch(
        (error: unknown): SandboxPlan => ({
          ok: false,
          reason: `Refused: ${executor.name} was not run: its sandbox could not be prepared (${(error as Error).message}).`,
        }),
      );
    if (!plan.ok) return refused('sandbox', plan.reason);
    const run = await spawnExecutor(executor, args, plan, options, started);
    return { ...run, sandbox: sandbox.status, network: plan.network };
  } finally {
    await rm(staged.stagingDir, { recursive: true, force: true });
  }
}

/** Spawns a planned call and collects its outcome under the timeout and output cap. */
function spawnExecutor(
  executor: Executor,
  args: unknown,
  plan: Extract<SandboxPlan, { ok: true }>,
  options: RunExecutorOptions,
  started: number,
): Promise<ExecutorRun> {
  const timeoutMs = options.timeoutMs ?? executor.limits.timeout_ms ?? DEFAULT_EXECUTOR_TIMEOUT_MS;
  const maxOutputBytes =
    options.maxOutputBytes ?? executor.limits.max_output_bytes ?? DEFAULT_EXECUTOR_MAX_OUTPUT_BYTES;
  return new Promise<ExecutorRun>((resolvePromise) => {
    const stdoutChunks: Buffer[] = [];
    let stdoutBytes = 0;
    const stderrChunks: Buffer[] = [];
    let stderrBytes = 0;
    let timedOut = false;
    let outputCapped = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let settled = false;

    const child = spawn(plan.command, plan.args, {
      cwd: plan.cwd,
      env: plan.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    const finish = (outcome: ExecutorOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolvePromise({
        outcome,
        exitCode,
        exitSignal,
        timedOut,
        outputCapped,
        aborted,
        durationMs: performance.now() - started,
        stderr: Buffer.concat(stderrChunks).toString('utf8'),
      });
    };

    child.stdout.on('data', (chunk: Buffer) => {
      if (outputCapped) return;
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutputBytes) {
        outputCapped = true;
        killGroup();
        return;
      }
      stdoutChunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes < STDERR_KEEP_BYTES)
        stderrChunks.push(chunk.subarray(0, STDERR_KEEP_BYTES - stderrBytes));
      stderrBytes += chunk.length;
    });
    child.stdin.on('error', () => {
      // The executor exited without reading its arguments; its exit status tells the story.
    });
    child.stdin.end(JSON.stringify(args ?? {}));

    child.on('error', (error) => {
      finish({ ok: false, error: `could not start executor ${executor.name}: ${error.message}` });
    });
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      killGroup();
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finishFromOutput();
      }, PIPE_DRAIN_MS).unref();
    });
    child.on('close', () => finishFromOutput());

    function finishFromOutput(): void {
      finish(outcomeFromOutput());
    }

    function outcomeFromOutput(): ExecutorOutcome {
      const stderrExcerpt = excerpt(Buffer.concat(stderrChunks).toString('utf8'));
      const stderrPart = `stderr: ${stderrExcerpt || '(empty)'}`;
      if (aborted) return { ok: false, error: `aborted; ${stderrPart}` };
      if (timedOut) return { ok: false, error: `timed out after ${timeoutMs} ms; ${stderrPart}` };
      if (outputCapped) return { ok: false, error: `output exceeded ${maxOutputBytes} bytes; ${stderrPart}` };
      const stdout = Buffer.concat(stdoutChunks).toString('utf8');
      const parsed = parseExecutorOutput(stdout);
      if (parsed.ok) return parsed.outcome;
      const stdoutExcerpt = excerpt(stdout) || '(empty)';
      const status = exitSignal ? ` (killed by ${exitSignal})` : exitCode ? ` (exit code ${exitCode})` : '';
      if (parsed.problem === 'not-json') {
        return { ok: false, error: `non-JSON output${status}: ${stdoutExcerpt}; ${stderrPart}` };
      }
      return {
        ok: false,
        error: `invalid output${status}: expected one JSON object {ok, content?, metadata?, error?}, got ${stdoutExcerpt}; ${stderrPart}`,
      };
    }
  });
}

function excerpt(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= ERROR_EXCERPT_CHARS) return trimmed;
  return `${trimmed.slice(0, ERROR_EXCERPT_CHARS)}… [${trimmed.length - ERROR_EXCERPT_CHARS} more characters]`;
}
