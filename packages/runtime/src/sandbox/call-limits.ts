import { existsSync } from 'node:fs';

/** Per-call resource limits (`[runtime.sandbox] memory_mb`, `processes`, `file_size_mb`). */
export interface CallLimits {
  /** Memory of the whole call (every process it starts), in MiB. */
  memoryMb: number;
  /** Processes and threads the call may have at once. */
  processes: number;
  /** Largest file the call may write, in MiB. */
  fileSizeMb: number;
}

/** Defaults: generous for builds and scripts, far below what a desktop or CI machine has. */
export const DEFAULT_CALL_LIMITS: Readonly<CallLimits> = {
  memoryMb: 4096,
  processes: 1024,
  fileSizeMb: 4096,
};

/** Where the `prlimit` of util-linux is looked for. */
const PRLIMIT_PATHS = ['/usr/bin/prlimit', '/bin/prlimit'];

const MIB = 1024 * 1024;

/** The `prlimit` binary of this machine, or `undefined`. */
export function findPrlimit(): string | undefined {
  return PRLIMIT_PATHS.find((path) => existsSync(path));
}

/**
 * The command prefix that sets the call's resource limits inside the sandbox, where its user namespace makes
 * `RLIMIT_NPROC` count the call's own processes only (even when the user is root): processes and file size
 * always, and the address space of each process when no cgroup caps the call's memory as a whole.
 */
export function prlimitPrefix(prlimit: string, limits: CallLimits, memoryByCgroup: boolean): string[] {
  const prefix = [prlimit, `--nproc=${limits.processes}`, `--fsize=${limits.fileSizeMb * MIB}`];
  if (!memoryByCgroup) prefix.push(`--as=${limits.memoryMb * MIB}`);
  return [...prefix, '--'];
}

/** One sentence for observations and the sandbox's description: the limits and what enforces them. */
export function describeLimits(limits: CallLimits, enforcedBy: string): string {
  return `limits per call: ${limits.memoryMb} MiB of memory, ${limits.processes} processes, files up to ${limits.fileSizeMb} MiB (${enforcedBy})`;
}
