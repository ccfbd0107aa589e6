import { execFile } from 'node:child_process';
import { type BigIntStats, lstatSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { gitName } from './directory-index.js';

/** How long one `git config` may take before the repository is taken to name no hooks folder. */
const GIT_CONFIG_TIMEOUT_MS = 5_000;

/** A git directory's config file, as last read. */
interface ConfigRead {
  identity: string;
  hooksPath: string | undefined;
}

/**
 * The hooks folders repositories name with `core.hooksPath` (husky, lefthook and others keep hooks in the work
 * tree that way): git runs the scripts there on the host, so they are git metadata too. Asks git itself
 * (`git config --file … --includes --path --get core.hooksPath`), so includes, quoting and `~` are read as git
 * reads them; a config file is asked again only when it changed. A relative path is taken from the top of the work
 * tree (the folder holding `.git`), or from the git directory of a bare repository. Without git on the machine
 * nothing is found: nothing can run hooks then either.
 */
export class HooksPaths {
  private readonly reads = new Map<string, ConfigRead>();

  /** For each repository (`.git` entry or bare git directory) and its git directories, the hooks folder it names. */
  async folders(
    repositories: ReadonlyArray<{ entry: string; gitDirectories: readonly string[] }>,
  ): Promise<string[]> {
    const found = new Set<string>();
    for (const { entry, gitDirectories } of repositories) {
      const base = gitName(basename(entry)) === '.git' ? dirname(entry) : entry;
      for (const gitDirectory of gitDirectories) {
        for (const name of ['config', 'config.worktree']) {
          const value = await this.hooksPath(join(gitDirectory, name));
          if (value) found.add(isAbsolute(value) ? value : resolve(base, value));
        }
      }
    }
    return [...found];
  }

  private async hooksPath(config: string): Promise<string | undefined> {
    let stats: BigIntStats | undefined;
    try {
      stats = lstatSync(config, { bigint: true, throwIfNoEntry: false });
    } catch {
      // ENOTDIR and the like: a `.git` file may name a "git directory" below a file; there is no config to read.
      return undefined;
    }
    if (!stats?.isFile()) return undefined;
    const identity = `${stats.dev}:${stats.ino}:${stats.size}:${stats.ctimeNs}`;
    const known = this.reads.get(config);
    if (known?.identity === identity) return known.hooksPath;
    const hooksPath = await gitConfigValue(config);
    this.reads.set(config, { identity, hooksPath });
    return hooksPath;
  }
}

function gitConfigValue(config: string): Promise<string | undefined> {
  return new Promise((resolveValue) => {
    execFile(
      'git',
      ['config', '--file', config, '--includes', '--path', '--get', 'core.hooksPath'],
      {
        timeout: GIT_CONFIG_TIMEOUT_MS,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
      },
      (error, stdout) => resolveValue(error ? undefined : stdout.trim() || undefined),
    );
  });
}
