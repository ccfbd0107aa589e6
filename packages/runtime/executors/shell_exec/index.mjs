// shell_exec: runs a command with /bin/sh -c. Arguments arrive as one JSON object on stdin; prints one JSON
// object on stdout. The command's standard output goes out on the runtime's content channel as it is produced
// (content-sink.mjs), up to the runtime's bound; without a channel it comes back inline, up to 4 MiB.
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { boundName, contentBound, openSink } from './content-sink.mjs';

const INLINE_STDOUT_BYTES = 4 * 1024 * 1024;
const MAX_STDOUT_BYTES = contentBound(INLINE_STDOUT_BYTES);
const MAX_STDERR_BYTES = 256 * 1024;
const ERROR_EXCERPT_CHARS = 2000;

async function main(args) {
  if (typeof args.command !== 'string' || args.command.trim() === '') {
    throw new Error('"command" is required and must be a non-empty string');
  }
  if (args.cwd !== undefined && (typeof args.cwd !== 'string' || args.cwd === '')) {
    throw new Error('"cwd" must be a non-empty string');
  }
  const cwd = args.cwd === undefined ? process.cwd() : expandPath(args.cwd);
  const timeoutSeconds = args.timeout_seconds ?? 30;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 600) {
    throw new Error('"timeout_seconds" must be an integer between 1 and 600');
  }
  const sink = openSink();
  const run = await runCommand(args.command, cwd, timeoutSeconds * 1000, sink);
  await sink.end();
  const metadata = {
    exit_code: run.exitCode,
    signal: run.signal,
    timed_out: run.timedOut,
    stderr: run.stderr,
    stdout_bytes: run.stdoutBytes,
    stderr_bytes: run.stderrBytes,
    truncated: run.stoppedAtBound || run.stderrBytes > MAX_STDERR_BYTES,
    cwd,
    duration_ms: run.durationMs,
  };
  if (run.stoppedAtBound) {
    // The output passed the bound: the command was stopped there, so how much more it would have written is unknown.
    metadata.cut = {
      stored_bytes: MAX_STDOUT_BYTES,
      total_bytes: null,
      bound: boundName(INLINE_STDOUT_BYTES),
      read_on:
        'the command was stopped when its output passed the bound; send its output to a file (command > out.txt) and read that with fs_read and offset, or narrow it (grep, head, tail)',
    };
  }
  if (run.spawnError) return { ok: false, error: `could not run the command: ${run.spawnError}`, metadata };
  if (run.stoppedAtBound) {
    return sink.result(
      {
        ok: false,
        error: `stopped: its output passed ${MAX_STDOUT_BYTES} bytes (${boundName(INLINE_STDOUT_BYTES)}); the first ${MAX_STDOUT_BYTES} bytes are kept${stderrTail(run.stderr)}`,
        metadata,
      },
      'text',
    );
  }
  if (run.timedOut) {
    return sink.result(
      { ok: false, error: `timed out after ${timeoutSeconds} s${stderrTail(run.stderr)}`, metadata },
      'text',
    );
  }
  if (run.exitCode !== 0) {
    const status = run.signal ? `killed by ${run.signal}` : `exit code ${run.exitCode}`;
    return sink.result(
      { ok: false, error: `command failed (${status})${stderrTail(run.stderr)}`, metadata },
      'text',
    );
  }
  return sink.result({ ok: true, metadata }, 'text');
}

function runCommand(command, cwd, timeoutMs, sink) {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const stderr = [];
    let stoppedAtBound = false;
    let writing = Promise.resolve();
    let stdoutBytes = 0;
    let stderrBytes = 0;
    let timedOut = false;
    let spawnError;
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    // Standard output goes to the sink as it comes, the command paused while the sink is full; past the bound
    // the command is stopped (it could write forever).
    child.stdout.on('data', (chunk) => {
      if (stoppedAtBound) return;
      const room = MAX_STDOUT_BYTES - stdoutBytes;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      stdoutBytes += part.length;
      if (chunk.length > room) {
        stoppedAtBound = true;
        killGroup();
      }
      if (part.length === 0) return;
      child.stdout.pause();
      writing = writing.then(() => sink.write(part)).finally(() => child.stdout.resume());
    });
    child.stderr.on('data', (chunk) => {
      if (stderrBytes < MAX_STDERR_BYTES) stderr.push(chunk.subarray(0, MAX_STDERR_BYTES - stderrBytes));
      stderrBytes += chunk.length;
    });
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('exit', () => {
      // Background jobs the command left behind would hold the pipes open: end them with the command.
      killGroup();
    });
    child.on('close', async (exitCode, signal) => {
      clearTimeout(timer);
      await writing.catch(() => undefined);
      resolvePromise({
        exitCode,
        signal,
        timedOut,
        spawnError,
        stoppedAtBound,
        stderr: Buffer.concat(stderr).toString('utf8'),
        stdoutBytes,
        stderrBytes,
        durationMs: Date.now() - started,
      });
    });
  });
}

function stderrTail(stderr) {
  const trimmed = stderr.trim();
  if (trimmed === '') return '';
  return `; stderr: ${trimmed.length > ERROR_EXCERPT_CHARS ? `…${trimmed.slice(-ERROR_EXCERPT_CHARS)}` : trimmed}`;
}

function expandPath(path) {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(path);
}

async function readArguments() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const args = text.trim() === '' ? {} : JSON.parse(text);
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new Error('arguments must be a JSON object');
  return args;
}

let result;
try {
  result = await main(await readArguments());
} catch (error) {
  result = { ok: false, error: error.message };
}
// Exit once the result is flushed: an idle keep-alive socket or timer must not hold the runner until its timeout.
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
