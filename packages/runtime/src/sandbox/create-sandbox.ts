import { lstat, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultStagingRoot } from '../executors/stage-executor.js';
import type { EnvironmentVariables } from '../executors/xdg-dirs.js';
import { createBubblewrapSandbox } from './bubblewrap-sandbox.js';
import { findCgroupSupport } from './call-cgroup.js';
import { findPrlimit } from './call-limits.js';
import { createNoSandbox } from './no-sandbox.js';
import { DEFAULT_BUBBLEWRAP_PATH, probeBubblewrap } from './probe-bubblewrap.js';
import { machineHomes, protectedLocations } from './protected-locations.js';
import type { Sandbox } from './sandbox.js';
import { BUBBLEWRAP_PATH_VARIABLE, type SandboxSettings } from './sandbox-settings.js';
import { createUnavailableSandbox } from './unavailable-sandbox.js';
import { unixSocketFilter } from './unix-socket-filter.js';
import { resolveWriteRoots } from './write-roots.js';

/** Options of {@link createSandbox}. */
export interface CreateSandboxOptions {
  settings: SandboxSettings;
  /** The working directory `scratchpad run` started in (a write root unless it is or holds a home). */
  cwd: string;
  env?: EnvironmentVariables;
  /** Scratchpad's own locations, hidden in every call: config and keys, data (store, logs, executors), store. */
  scratchpadPaths: readonly string[];
  /** Where the runner stages each call's verified code (default `defaultStagingRoot()`). */
  stagingRoot?: string;
}

/**
 * The sandbox `scratchpad run` uses: none when the settings turn it off; bubblewrap when it works on this machine;
 * otherwise one that refuses every call and says what to install. Throws `CONFIG_INVALID` when a write root is
 * refused (the home folder, a system folder, …) or when the working directory cannot be one and none is granted.
 */
export async function createSandbox(options: CreateSandboxOptions): Promise<Sandbox> {
  const { settings } = options;
  if (!settings.enabled) return createNoSandbox();
  const env = options.env ?? process.env;
  if (process.platform !== 'linux') {
    return createUnavailableSandbox(
      `No sandbox: there is no sandbox backend for ${process.platform} yet (bubblewrap is Linux only; a macOS ` +
        'sandbox-exec backend is planned). Run without a sandbox on purpose with `scratchpad run --no-sandbox`.',
    );
  }
  const bwrapPath = env[BUBBLEWRAP_PATH_VARIABLE] || settings.bwrapPath || DEFAULT_BUBBLEWRAP_PATH;
  const probe = await probeBubblewrap(bwrapPath);
  if (!probe.ok) return createUnavailableSandbox(probe.reason);
  if (!(await lstat('/run').catch(() => undefined))?.isDirectory()) {
    return createUnavailableSandbox(
      'No sandbox: this machine has no /run folder, where each call gets its run folder. Run without a ' +
        'sandbox on purpose with `scratchpad run --no-sandbox`.',
    );
  }
  const home = await realOrSame(env.HOME || homedir());
  const homes = await Promise.all((await machineHomes(home)).map(realOrSame));
  const expand = (path: string) =>
    path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
  const protectedPaths = protectedLocations(homes, [
    ...settings.hide.map(expand),
    ...options.scratchpadPaths,
  ]);
  const stagingRoot = await realOrSame(options.stagingRoot ?? defaultStagingRoot());
  const writeRoots = await resolveWriteRoots({
    cwd: options.cwd,
    granted: settings.writeRoots,
    home,
    homes,
    protectedPaths,
    stagingRoot,
  });
  return createBubblewrapSandbox({
    bwrapPath,
    version: probe.version,
    features: probe.features,
    writeRoots: writeRoots.roots,
    protectedPaths,
    networkGrants: settings.network,
    limits: settings.limits,
    ...optional('prlimitPath', findPrlimit()),
    ...optional('cgroups', findCgroupSupport()),
    ...optional('socketFilter', unixSocketFilter()),
  });
}

function optional<Key extends string, Value>(key: Key, value: Value | undefined): { [K in Key]?: Value } {
  return (value === undefined ? {} : { [key]: value }) as { [K in Key]?: Value };
}

async function realOrSame(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}
