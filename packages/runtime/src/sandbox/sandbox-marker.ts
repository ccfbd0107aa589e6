import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** Folder every sandboxed call sees, read-only: the marker and the verified code. */
export const SANDBOX_RUN_FOLDER = '/run/scratchpad';
/** A read-only file inside every sandbox: the sandboxed process can neither remove nor hide it. */
export const SANDBOX_MARKER_FILE = `${SANDBOX_RUN_FOLDER}/sandbox`;
/** Environment variable set inside every sandbox (a hint only: a process can unset its own environment). */
export const SANDBOX_ENVIRONMENT_VARIABLE = 'SCRATCHPAD_SANDBOX';

/**
 * Why this process looks like it runs inside a Scratchpad sandbox, or `undefined`. Three independent signs, any
 * of which counts: the marker file (mounted read-only by the sandbox; without capabilities and user namespaces the
 * process cannot unmount it), the first process of this PID namespace being the bubblewrap that mounted that file (a
 * namespace fact the process cannot change), and the environment variable.
 */
export function detectSandbox(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  if (existsSync(SANDBOX_MARKER_FILE)) return `the sandbox marker ${SANDBOX_MARKER_FILE} is present`;
  if (firstProcessIsOurBubblewrap())
    return 'the first process of this PID namespace is the bubblewrap of a Scratchpad sandbox';
  if (env[SANDBOX_ENVIRONMENT_VARIABLE]) return `${SANDBOX_ENVIRONMENT_VARIABLE} is set`;
  return undefined;
}

/** PID 1 is bubblewrap and mounts our run folder: a sandbox of ours, not any bubblewrap (Flatpak uses it too). */
function firstProcessIsOurBubblewrap(): boolean {
  try {
    const argv = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
    return basename(argv[0] ?? '') === 'bwrap' && argv.includes(SANDBOX_RUN_FOLDER);
  } catch {
    return false;
  }
}
