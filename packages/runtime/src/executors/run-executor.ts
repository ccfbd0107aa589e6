import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createNoSandbox } from '../sandbox/no-sandbox.js';
import type { Sandbox, SandboxPlan, SandboxStatus } from '../sandbox/sandbox.js';
import { explainSandboxOutcome } from '../sandbox/sandbox-observation.js';
import {
  boundedChannel,
  bufferingReceiver,
  type ChannelCount,
  CONTENT_BOUND_VARIABLE,
  CONTENT_CHANNEL_FD,
  CONTENT_FD_VARIABLE,
  type ContentReceiver,
  DEFAULT_MAX_CONTENT_BYTES,
} from './content-channel.js';
import type { Executor } from './executor.js';
import { scrubEnvironment } from './executor-environment.js';
import { type ExecutorOutcome, parseExecutorOutput } from './executor-outcome.js';
import { stageExecutor } from './stage-executor.js';
import type { EnvironmentVariables } from './xdg-dirs.js';

/** Set to `1` for an executor allowed to connect to this machine's own addresses (see `localNetwork`). */
const LOCAL_NETWORK_VARIABLE = 'SCRATCHPAD_LOCAL_NETWORK';
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
  /**
   * Most bytes the content channel takes (`[runtime] max_stored_bytes`, default 1 GiB); told to the executor in
   * `SCRATCHPAD_MAX_CONTENT_BYTES`. An executor that sends more is stopped and its call fails.
   */
  maxContentBytes?: number;
  /**
   * Executors allowed to connect to this machine's own addresses (loopback, link-local): `[runtime.sandbox]
   * local_network`. Told to the executor in `SCRATCHPAD_LOCAL_NETWORK`; web_fetch refuses them otherwise.
   */
  localNetwork?: readonly string[];
  /**
   * Takes the content channel's bytes as they arrive (the runtime streams them into the store). Without one, they
   * are collected in memory, up to the smaller of `maxContentBytes` and `maxOutputBytes`, and become the
   * outcome's `content` (text, or base64 for binary), as if the executor had put them in its JSON.
   */
  receiveContent?: ContentReceiver;
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
  /** Bytes that came on the content channel (0 when the executor did not use it). */
  contentBytes?: number;
  /** Set when the executor declared streamed content (`content_stream`): its kind. */
  contentStream?: 'text' | 'binary';
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
   * sandbox and no opt-out); or `git` when the call ran but changed git metadata in a write root, which the
   * sandbox undid after it. The outcome says why.
   */
  refused?: 'tampered' | 'sandbox' | 'git';
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
        env: scrubEnvironment(options.parentEnv ?? process.env, {
          ...options.env,
          [CONTENT_FD_VARIABLE]: String(CONTENT_CHANNEL_FD),
          [CONTENT_BOUND_VARIABLE]: String(contentBound(executor, options)),
          ...(options.localNetwork?.includes(executor.name) ? { [LOCAL_NETWORK_VARIABLE]: '1' } : {}),
        }),
      })
      .catch(
        (error: unknown): SandboxPlan => ({
          ok: false,
          reason: `Refused: ${executor.name} was not run: its sandbox could not be prepared (${(error as Error).message}).`,
        }),
      );
    if (!plan.ok) return refused('sandbox', plan.reason);
    let run: ExecutorRun;
    try {
      run = await spawnExecutor(executor, args, plan, options, started);
    } catch (error) {
      await plan.finish?.();
      throw error;
    }
    // The sandbox's facts about the call (what it may write, limits it reached) make the observation exact.
    const facts = await plan.finish?.();
    const outcome = facts ? explainSandboxOutcome(run.outcome, facts) : run.outcome;
    const refusal = plan.afterCall ? await afterCallRefusal(plan.afterCall) : undefined;
    if (refusal === undefined) return { ...run, outcome, sandbox: sandbox.status, network: plan.network };
    return {
      ...run,
      outcome: { ok: false, error: `${refusal} Its own result was: ${excerpt(JSON.stringify(outcome))}` },
      sandbox: sandbox.status,
      network: plan.network,
      refused: 'git',
    };
  } finally {
    await rm(staged.stagingDir, { recursive: true, force: true });
  }
}

/** The content channel's bound for a call: without a receiver, the content is held in memory like stdout. */
function contentBound(executor: Executor, options: RunExecutorOptions): number {
  const bound = options.maxContentBytes ?? DEFAULT_MAX_CONTENT_BYTES;
  if (options.receiveContent) return bound;
  return Math.min(
    bound,
    options.maxOutputBytes ?? executor.limits.max_output_bytes ?? DEFAULT_EXECUTOR_MAX_OUTPUT_BYTES,
  );
}

/** The sandbox's check after a call; a check that fails is a refusal too (nothing can be said of the call). */
async function afterCallRefusal(afterCall: () => Promise<string | undefined>): Promise<string | undefined> {
  try {
    return await afterCall();
  } catch (error) {
    return `Refused: the sandbox could not check what the call left in the write roots (${(error as Error).message}).`;
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
    const channelCount: ChannelCount = { bytes: 0, overflowed: false };
    let receiveError: Error | undefined;
    const bound = contentBound(executor, options);
    const buffered = options.receiveContent ? undefined : bufferingReceiver();
    const receive = options.receiveContent ?? (buffered as ReturnType<typeof bufferingReceiver>).receive;

    // File descriptor 3 is the content channel; files the plan hands over (the sandbox's system-call filter)
    // follow as 4, 5, … (FIRST_INHERITED_FD).
    const inherited = (plan.inheritedFiles ?? []).map((path) => openSync(path, 'r'));
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(plan.command, plan.args, {
        cwd: plan.cwd,
        env: plan.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe', ...inherited],
      }) as ChildProcessWithoutNullStreams;
    } finally {
      for (const descriptor of inherited) closeSync(descriptor);
    }
    const channel = child.stdio[CONTENT_CHANNEL_FD] as Readable;

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
      // A process that escaped the group may hold the channel open: stop waiting for it.
      channel.destroy();
    }, timeoutMs);
    // The channel is read until it ends (the receiver may be slow: the store's pace), never cut after the exit.
    const receiving = receive(boundedChannel(channel, bound, channelCount, killGroup)).catch(
      (error: unknown) => {
        receiveError = error as Error;
        killGroup();
        channel.destroy();
      },
    );
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    let finishing = false;
    const finish = (outcome: ExecutorOutcome, contentStream?: 'text' | 'binary'): void => {
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
        contentBytes: channelCount.bytes,
        ...(contentStream ? { contentStream } : {}),
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
      channel.destroy();
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
      if (finishing) return;
      finishing = true;
      void receiving.then(() => {
        const { outcome, contentStream } = outcomeFromOutput();
        if (!contentStream || !buffered) return finish(outcome, contentStream);
        // No receiver: the streamed content becomes the outcome's `content`, as if it had come in the JSON.
        const bytes = buffered.bytes();
        finish({
          ...outcome,
          content: contentStream === 'text' ? bytes.toString('utf8') : bytes.toString('base64'),
        });
      });
    }

    function outcomeFromOutput(): { outcome: ExecutorOutcome; contentStream?: 'text' | 'binary' } {
      const failed = (error: string) => ({ outcome: { ok: false, error } });
      const stderrExcerpt = excerpt(Buffer.concat(stderrChunks).toString('utf8'));
      const stderrPart = `stderr: ${stderrExcerpt || '(empty)'}`;
      if (aborted) return failed(`aborted; ${stderrPart}`);
      if (timedOut) return failed(`timed out after ${timeoutMs} ms; ${stderrPart}`);
      if (outputCapped) return failed(`output exceeded ${maxOutputBytes} bytes; ${stderrPart}`);
      if (channelCount.overflowed)
        return failed(`streamed content exceeded ${bound} bytes (the bound it was told); ${stderrPart}`);
      if (receiveError)
        return failed(`its streamed content could not be kept: ${receiveError.message}; ${stderrPart}`);
      const stdout = Buffer.concat(stdoutChunks).toString('utf8');
      const parsed = parseExecutorOutput(stdout);
      if (parsed.ok) {
        return parsed.contentStream
          ? { outcome: parsed.outcome, contentStream: parsed.contentStream }
          : { outcome: parsed.outcome };
      }
      const stdoutExcerpt = excerpt(stdout) || '(empty)';
      const status = exitSignal ? ` (killed by ${exitSignal})` : exitCode ? ` (exit code ${exitCode})` : '';
      if (parsed.problem === 'not-json') {
        return failed(`non-JSON output${status}: ${stdoutExcerpt}; ${stderrPart}`);
      }
      return failed(
        `invalid output${status}: expected one JSON object {ok, content?, metadata?, error?}, got ${stdoutExcerpt}; ${stderrPart}`,
      );
    }
  });
}

function excerpt(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= ERROR_EXCERPT_CHARS) return trimmed;
  return `${trimmed.slice(0, ERROR_EXCERPT_CHARS)}… [${trimmed.length - ERROR_EXCERPT_CHARS} more characters]`;
}
