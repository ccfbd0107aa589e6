import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { readFile, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallLimits } from './call-limits.js';

/** Where this machine lets us make a cgroup per call: cgroup v2 (one folder) or v1 (memory and pids folders). */
export interface CgroupSupport {
  version: 1 | 2;
  memoryParent: string;
  pidsParent: string;
}

/** One call's cgroup: the files its first process writes its PID to, and what to do when the call has ended. */
export interface CallCgroup {
  /** `cgroup.procs` files: the process that execs bubblewrap joins them first, so all it starts is inside. */
  procsFiles: string[];
  /** Reads what the call ran into (sentences for the observation), then kills what is left and removes the cgroup. */
  finish(): Promise<string[]>;
}

const MIB = 1024 * 1024;
/** How long {@link CallCgroup.finish} waits for the last processes to be reaped before leaving the folder. */
const REMOVE_ATTEMPTS = 50;
const REMOVE_PAUSE_MS = 20;

/**
 * Finds a cgroup hierarchy in which this process may create child cgroups with the memory and pids controllers
 * (root, or a delegated cgroup): cgroup v2 when the controllers are enabled for our cgroup's children, else
 * cgroup v1's memory and pids hierarchies. Tries to create and remove one, once, at start. `undefined` when
 * there is none: the limits then fall back to per-process limits (`prlimit`).
 */
export function findCgroupSupport(
  procSelfCgroup = '/proc/self/cgroup',
  root = '/sys/fs/cgroup',
): CgroupSupport | undefined {
  let lines: string[];
  try {
    lines = readFileSync(procSelfCgroup, 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pathOf = (controller: string) => {
    for (const line of lines) {
      const [, controllers, path] = line.match(/^\d+:([^:]*):(.*)$/) ?? [];
      if (controllers !== undefined && path !== undefined && controllers.split(',').includes(controller))
        return path;
    }
    return undefined;
  };
  const unified = lines.find((line) => line.startsWith('0::'))?.slice(3);
  if (unified !== undefined && existsSync(join(root, 'cgroup.controllers'))) {
    const parent = join(root, unified);
    const enabled = readText(join(parent, 'cgroup.subtree_control')).split(/\s+/);
    if (!enabled.includes('memory') || !enabled.includes('pids') || !canCreateChild(parent)) return undefined;
    const support: CgroupSupport = { version: 2, memoryParent: parent, pidsParent: parent };
    removeStaleCgroups(support);
    return support;
  }
  const memory = pathOf('memory');
  const pids = pathOf('pids');
  if (memory === undefined || pids === undefined) return undefined;
  const memoryParent = join(root, 'memory', memory);
  const pidsParent = join(root, 'pids', pids);
  if (!canCreateChild(memoryParent) || !canCreateChild(pidsParent)) return undefined;
  const support: CgroupSupport = { version: 1, memoryParent, pidsParent };
  removeStaleCgroups(support);
  return support;
}

/** A call's cgroup folders, kept between calls: creating and removing a memory cgroup costs milliseconds. */
interface PooledCgroup {
  memory: string;
  pids: string;
  folders: string[];
}

/** Idle cgroups of this process, by parent folders. */
const idle = new Map<string, PooledCgroup[]>();
let exitHookInstalled = false;

/**
 * Control files are read and written synchronously: each is a few bytes of sysfs, faster than a round trip
 * through the thread pool, which on a loaded machine costs more than the work.
 *
 * The cgroup(s) of one call with its memory and process limits: an idle one of this process when there is one,
 * else new ones named after this process (`scratchpad-<pid>-<random>`). Counters are read at the start and the
 * end of the call, so a reused cgroup reports this call only. Idle ones are removed when the process exits; those
 * of processes that died are removed by {@link removeStaleCgroups}.
 */
export async function createCallCgroup(support: CgroupSupport, limits: CallLimits): Promise<CallCgroup> {
  const key = `${support.memoryParent}\0${support.pidsParent}`;
  const pooled = idle.get(key)?.pop() ?? newCgroup(support);
  installExitHook();
  const { memory, pids, folders } = pooled;
  const memoryEvents = join(memory, support.version === 2 ? 'memory.events' : 'memory.oom_control');
  const pidsEvents = join(pids, 'pids.events');
  let before: { oomKills: number; refusedForks: number };
  try {
    const bytes = String(limits.memoryMb * MIB);
    if (support.version === 2) {
      writeFileSync(join(memory, 'memory.max'), bytes);
      writeQuietly(join(memory, 'memory.swap.max'), '0');
    } else {
      writeFileSync(join(memory, 'memory.limit_in_bytes'), bytes);
    }
    writeFileSync(join(pids, 'pids.max'), String(limits.processes));
    before = {
      oomKills: counter(readFileSync(memoryEvents, 'utf8'), 'oom_kill'),
      refusedForks: counter(readFileSync(pidsEvents, 'utf8'), 'max'),
    };
  } catch (error) {
    for (const folder of folders) void removeCgroup(folder);
    throw error;
  }
  return {
    procsFiles: folders.map((folder) => join(folder, 'cgroup.procs')),
    async finish() {
      const oomKills = counter(readFileSync(memoryEvents, 'utf8'), 'oom_kill') - before.oomKills;
      const refusedForks = counter(readFileSync(pidsEvents, 'utf8'), 'max') - before.refusedForks;
      // Back to the pool once nothing of the call is left in it; otherwise killed and removed in the background.
      if (empty(folders)) {
        const list = idle.get(key) ?? [];
        list.push(pooled);
        idle.set(key, list);
      } else {
        for (const folder of folders) void removeCgroup(folder);
      }
      const notes: string[] = [];
      if (oomKills > 0)
        notes.push(
          `the call reached its memory limit of ${limits.memoryMb} MiB ([runtime.sandbox] memory_mb): the kernel killed ${oomKills} of its processes`,
        );
      if (refusedForks > 0)
        notes.push(
          `the call reached its limit of ${limits.processes} processes ([runtime.sandbox] processes): ${refusedForks} attempts to start one more were refused`,
        );
      return notes;
    },
  };
}

function newCgroup(support: CgroupSupport): PooledCgroup {
  const name = `scratchpad-${process.pid}-${randomBytes(4).toString('hex')}`;
  const memory = join(support.memoryParent, name);
  const pids = join(support.pidsParent, name);
  const folders = support.version === 2 ? [memory] : [memory, pids];
  for (const folder of folders) mkdirSync(folder);
  return { memory, pids, folders };
}

function empty(folders: readonly string[]): boolean {
  return folders.every((folder) => readText(join(folder, 'cgroup.procs'), 'unreadable').trim() === '');
}

function writeQuietly(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch {
    // An optional control file this kernel lacks.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const list of idle.values())
      for (const pooled of list)
        for (const folder of pooled.folders) {
          try {
            rmdirSync(folder);
          } catch {
            // Busy or gone: removeStaleCgroups takes it at a later start.
          }
        }
  });
}

/**
 * Removes the cgroups left by Scratchpad processes that are gone (`scratchpad-<pid>-…` of a PID that no longer
 * runs): a process killed before its exit hook leaves its idle ones behind. One listing per parent folder.
 */
function removeStaleCgroups(support: CgroupSupport): void {
  for (const parent of new Set([support.memoryParent, support.pidsParent])) {
    let names: string[];
    try {
      names = readdirSync(parent);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = /^scratchpad-(\d+)-[0-9a-f]+$/.exec(name)?.[1];
      if (pid === undefined || alive(Number(pid))) continue;
      try {
        rmdirSync(join(parent, name));
      } catch {
        // Still has processes, or already gone.
      }
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function counter(text: string, key: string): number {
  const match = text.match(new RegExp(`^${key} (\\d+)$`, 'm'));
  return match ? Number(match[1]) : 0;
}

/** Kills what is left in `folder` and removes it; never rejects (a folder left behind is empty and harmless). */
async function removeCgroup(folder: string): Promise<void> {
  for (let attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
    const procs = (await readFile(join(folder, 'cgroup.procs'), 'utf8').catch(() => '')).split('\n');
    for (const pid of procs.filter((line) => /^\d+$/.test(line))) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    try {
      await rmdir(folder);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((resolve) => setTimeout(resolve, REMOVE_PAUSE_MS));
    }
  }
}

function readText(path: string, otherwise = ''): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return otherwise;
  }
}

function canCreateChild(parent: string): boolean {
  const probe = join(parent, `scratchpad-probe-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** Joins `procsFiles`, then runs the rest: `sh -c SCRIPT sh FILE… COMMAND ARG…`. */
export function joinCgroupsCommand(
  procsFiles: readonly string[],
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  const joins = procsFiles.map((_, index) => `echo $$ > "$${index + 1}" || exit 125`).join('; ');
  return {
    command: '/bin/sh',
    args: ['-c', `${joins}; shift ${procsFiles.length}; exec "$@"`, 'sh', ...procsFiles, command, ...args],
  };
}
