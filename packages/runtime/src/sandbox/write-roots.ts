import { realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ScratchpadError } from 'llm-scratchpad';
import { isDangerousTarget } from '../vaglio/destructive-commands.js';
import { pathContains } from './path-contains.js';

/** Where executors may write, after checking. */
export interface WriteRoots {
  /** Real paths of the folders mounted writable (the working directory first when it is one). */
  roots: string[];
  /** False when the working directory is not writable (it is a home, or it holds one, and roots were granted). */
  cwdWritable: boolean;
}

/** What {@link resolveWriteRoots} checks against. */
export interface WriteRootsOptions {
  /** The working directory `scratchpad run` started in (a write root by default). */
  cwd: string;
  /** Folders granted in `[runtime.sandbox] write_roots` (`~/` means the user's home). */
  granted: readonly string[];
  /** The user's home folder. */
  home: string;
  /** Every home folder of the machine. */
  homes: readonly string[];
  /** Protected locations (a write root may not be inside one). */
  protectedPaths: readonly string[];
  /** Where each call's verified code is staged (a write root may not hold it). */
  stagingRoot: string;
}

/**
 * Decides the write roots: the working directory plus the granted folders. A root may not be `/`, a system
 * folder, a home folder or a folder that holds one, nor lie inside a protected location: a model must never be
 * able to rewrite a home (start-up files, keys) or the system. A refused granted root is a `CONFIG_INVALID`; a
 * refused working directory is too, unless folders were granted, in which case it is simply read-only.
 */
export async function resolveWriteRoots(options: WriteRootsOptions): Promise<WriteRoots> {
  const roots: string[] = [];
  for (const granted of options.granted) {
    const path = await existingRealPath(expandUserHome(granted, options.home), granted);
    const problem = writeRootProblem(path, options);
    if (problem) {
      throw new ScratchpadError('CONFIG_INVALID', `write root ${granted} ${problem}.`, {
        hint: 'Grant a project folder instead, with --write-root PATH or in [runtime.sandbox] write_roots.',
        details: { writeRoot: granted, path },
      });
    }
    roots.push(path);
  }
  const cwd = await existingRealPath(options.cwd, options.cwd);
  const problem = writeRootProblem(cwd, options);
  if (problem && roots.length === 0) {
    throw new ScratchpadError(
      'CONFIG_INVALID',
      `The working directory ${cwd} ${problem}, so executors cannot be allowed to write in it.`,
      {
        hint:
          'Start `scratchpad run` in a project folder (cd ~/my-project), or grant folders explicitly with ' +
          '`scratchpad run --write-root ~/my-project` or [runtime.sandbox] write_roots = ["~/my-project"] in the config file (the working directory then stays read-only).',
        details: { cwd },
      },
    );
  }
  return problem ? { roots, cwdWritable: false } : { roots: [cwd, ...roots], cwdWritable: true };
}

function writeRootProblem(path: string, options: WriteRootsOptions): string | undefined {
  if (path === options.home) return 'is your home folder, which is never writable by executors';
  if (options.homes.some((home) => pathContains(path, home)))
    return 'holds a home folder, which is never writable by executors';
  if (isDangerousTarget(path, '/', options.home)) return 'is the root or a system folder';
  if (options.protectedPaths.some((location) => pathContains(location, path)))
    return 'is inside a protected location (credentials or Scratchpad data)';
  // The staging folder is hidden in every call; directly inside a root it is a mount point nobody can rename.
  if (pathContains(path, options.stagingRoot) && dirname(options.stagingRoot) !== path)
    return `holds ${options.stagingRoot}, where each call's verified code is staged, below its top level`;
  return undefined;
}

function expandUserHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return resolve(path);
}

async function existingRealPath(path: string, asWritten: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    throw new ScratchpadError('CONFIG_INVALID', `write root ${asWritten} does not exist.`, {
      hint: 'Create the folder first, or remove it from [runtime.sandbox] write_roots.',
      details: { path, code: (error as NodeJS.ErrnoException).code },
      cause: error,
    });
  }
}
