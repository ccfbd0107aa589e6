import { randomBytes } from 'node:crypto';
import {
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DirectoryIndex, gitName } from './directory-index.js';
import { HooksPaths } from './hooks-path.js';
import { pathContains } from './path-contains.js';

/** The git metadata of the write roots right before a call. */
export interface GitSnapshot {
  /** `.git` entries (folders, files, links) and bare git directories, with what identifies each. */
  repositories: Map<string, string>;
  /** `.gitmodules` entries: their bytes and mode when kept, and their identity (kind, inode, size, ctime). */
  gitmodules: Map<string, GitmodulesState>;
  /** Folders that could not be examined (path too long, no permission), with the error code. */
  unexamined: Map<string, string>;
  /** Hooks folders the repositories name with `core.hooksPath`, with their identity (`gone` when absent). */
  hooksFolders: Map<string, string>;
}

/** A `.gitmodules` as found: its bytes are kept when it is a readable regular file of at most 1 MiB. */
export interface GitmodulesState {
  kept?: { bytes: Buffer; mode: number };
  identity: string;
}

/** One change to git metadata found after a call, and what was done about it. */
export interface GitChange {
  path: string;
  change: 'created' | 'replaced' | 'changed' | 'removed' | 'unexamined';
  /** What was done: `moved aside to …`, `restored`, or why it could not be undone. */
  action: string;
  undone: boolean;
}

/** Bytes of a `.git` file (`gitdir: …`) or `commondir` read at most. */
const POINTER_FILE_BYTES = 4096;
/** A `.gitmodules` larger than this is not kept for restoring (a real one is a few hundred bytes). */
const GITMODULES_KEEP_BYTES = 1024 * 1024;

/**
 * Keeps executors from making the host run code through git (issue 26). Before each call, `snapshot` finds every
 * repository in the write roots (`.git` folders, `.git` files and links, bare git directories) and every
 * `.gitmodules`; `readOnlyPaths` names the git metadata to mount read-only (the whole `.git`, the git directory a
 * `.git` file points to and its common directory, and the hooks folder `core.hooksPath` names, when they lie in a
 * write root). After the call, `undo` compares (a hooks folder that appeared is moved aside too):
 * a `.git` or bare git directory that appeared or was replaced is moved aside (renamed
 * `NAME.scratchpad-refused-…`; for a bare git directory its `HEAD`, which is what makes git take it for one); a
 * `.gitmodules` that appeared is moved aside, one that changed is moved aside and the old bytes written back, one
 * that was removed is written back. Nothing is deleted: what the executor wrote stays readable under the new name.
 */
export class RepositoryGuard {
  private readonly index: DirectoryIndex;
  private readonly hooksPaths = new HooksPaths();
  /** Snapshots run one at a time (calls may overlap; the index is shared). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly roots: readonly string[],
    skip: (path: string) => boolean = () => false,
  ) {
    this.index = new DirectoryIndex(roots, skip);
  }

  /** The git metadata of the write roots now. */
  snapshot(): Promise<GitSnapshot> {
    const next = this.queue.then(() => this.take());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async take(): Promise<GitSnapshot> {
    await this.index.refresh();
    const repositories = new Map<string, string>();
    const gitmodules = new Map<string, GitmodulesState>();
    for (const path of this.index.gitEntries()) {
      if (gitName(basename(path)) === '.gitmodules') gitmodules.set(path, readGitmodules(path));
      else repositories.set(path, identity(path));
    }
    for (const path of this.index.gitDirectories()) repositories.set(path, identity(path));
    const named = await this.hooksPaths.folders(
      [...repositories.keys()].map((entry) => ({ entry, gitDirectories: gitDirectoriesOf(entry) })),
    );
    const hooksFolders = new Map(named.map((path) => [path, identity(path)]));
    return { repositories, gitmodules, unexamined: this.index.unexamined(), hooksFolders };
  }

  /** Git metadata to mount read-only in the call: real paths inside the write roots, none inside another. */
  readOnlyPaths(snapshot: GitSnapshot): string[] {
    const paths = new Set<string>();
    for (const path of snapshot.repositories.keys()) {
      const stats = lstatOrUndefined(path);
      if (!stats) continue;
      if (!stats.isSymbolicLink()) paths.add(path);
      for (const gitDirectory of gitDirectoriesOf(path)) paths.add(gitDirectory);
    }
    for (const [path, found] of snapshot.hooksFolders) {
      const real = found.startsWith('folder') || found.startsWith('link') ? realOrUndefined(path) : undefined;
      if (real && lstatOrUndefined(real)?.isDirectory()) paths.add(real);
    }
    const inside = [...paths].filter((path) => this.roots.some((root) => pathContains(root, path)));
    return inside.filter((path) => !inside.some((other) => other !== path && pathContains(other, path)));
  }

  /** Finds what the call changed in the git metadata since `before`, and undoes it. */
  async undo(before: GitSnapshot): Promise<GitChange[]> {
    const after = await this.snapshot();
    const stamp = `scratchpad-refused-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}-${randomBytes(2).toString('hex')}`;
    const changes: GitChange[] = [];
    for (const [path, now] of after.repositories) {
      const was = before.repositories.get(path);
      if (was === now) continue;
      const target = gitName(basename(path)) === '.git' ? path : headOf(path);
      changes.push({ path, change: was === undefined ? 'created' : 'replaced', ...moveAside(target, stamp) });
    }
    for (const [path, now] of after.gitmodules) {
      const was = before.gitmodules.get(path);
      if (was === undefined) {
        changes.push({ path, change: 'created', ...moveAside(path, stamp) });
        continue;
      }
      if (sameGitmodules(was, now)) continue;
      const moved = moveAside(path, stamp);
      const restored = !moved.undone
        ? moved
        : was.kept
          ? writeBack(path, was.kept, moved.action)
          : {
              action: `${moved.action}; the previous version was not kept (over 1 MiB or unreadable)`,
              undone: false,
            };
      changes.push({ path, change: 'changed', ...restored });
    }
    for (const [path, was] of before.gitmodules) {
      if (after.gitmodules.has(path)) continue;
      const restored = was.kept
        ? writeBack(path, was.kept)
        : { action: 'the previous version was not kept (over 1 MiB or unreadable)', undone: false };
      changes.push({ path, change: 'removed', ...restored });
    }
    for (const [path, was] of before.hooksFolders) {
      const now = identity(path);
      if (now === was || now === 'gone') continue;
      changes.push({ path, change: was === 'gone' ? 'created' : 'replaced', ...moveAside(path, stamp) });
    }
    for (const [path, code] of after.unexamined) {
      if (before.unexamined.has(path)) continue;
      const action = `the guard could not look into it (${code}): what it holds is unknown`;
      changes.push({ path, change: 'unexamined', action, undone: false });
    }
    return changes;
  }
}

/** How a `.git` entry or git directory is told apart from a replacement: kind, device, inode (and link target). */
function identity(path: string): string {
  try {
    const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    if (!stats) return 'gone';
    const kind = stats.isDirectory() ? 'folder' : stats.isSymbolicLink() ? 'link' : 'file';
    const target = stats.isSymbolicLink() ? ` -> ${readlinkSync(path)}` : '';
    return `${kind} ${stats.dev}:${stats.ino}${target}`;
  } catch (error) {
    return `unreadable (${(error as NodeJS.ErrnoException).code})`;
  }
}

function readGitmodules(path: string): GitmodulesState {
  try {
    const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    if (!stats) return { identity: 'gone' };
    const state: GitmodulesState = { identity: `${identity(path)} ${stats.size} ${stats.ctimeNs}` };
    if (!stats.isFile() || stats.size > GITMODULES_KEEP_BYTES) return state;
    return { ...state, kept: { bytes: readFileSync(path), mode: Number(stats.mode & 0o777n) } };
  } catch (error) {
    return { identity: `unreadable (${(error as NodeJS.ErrnoException).code})` };
  }
}

/** Same bytes when both were kept; else the same identity. */
function sameGitmodules(left: GitmodulesState, right: GitmodulesState): boolean {
  if (left.kept && right.kept) return left.kept.bytes.equals(right.kept.bytes);
  return left.identity === right.identity;
}

/**
 * The real git directories a `.git` entry or bare git directory leads to: the folder itself or the one a
 * `gitdir: …` file names, and the common directory its `commondir` file names (worktrees, submodules).
 */
function gitDirectoriesOf(path: string): string[] {
  const found: string[] = [];
  const real = realOrUndefined;
  const stats = lstatOrUndefined(real(path) ?? path);
  let gitDirectory: string | undefined;
  if (stats?.isDirectory()) gitDirectory = real(path);
  else if (stats?.isFile()) {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readStart(path))?.[1];
    if (pointer) gitDirectory = real(resolve(dirname(path), pointer));
  }
  if (!gitDirectory) return found;
  found.push(gitDirectory);
  const common = readStart(join(gitDirectory, 'commondir')).trim();
  const commonDirectory = common ? real(resolve(gitDirectory, common)) : undefined;
  if (commonDirectory) found.push(commonDirectory);
  return found;
}

/** The `HEAD` of a bare git directory, in the case it has on disk. */
function headOf(folder: string): string {
  try {
    return join(folder, readdirSync(folder).find((entry) => gitName(entry) === 'head') ?? 'HEAD');
  } catch {
    return join(folder, 'HEAD');
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function readStart(path: string): string {
  try {
    return readFileSync(path).subarray(0, POINTER_FILE_BYTES).toString('utf8');
  } catch {
    return '';
  }
}

function moveAside(path: string, stamp: string): { action: string; undone: boolean } {
  const aside = `${path}.${stamp}`;
  try {
    renameSync(path, aside);
    return { action: `moved aside to ${aside}`, undone: true };
  } catch (error) {
    return { action: `could not be moved aside (${(error as NodeJS.ErrnoException).code})`, undone: false };
  }
}

function writeBack(
  path: string,
  kept: { bytes: Buffer; mode: number },
  moved?: string,
): { action: string; undone: boolean } {
  const prefix = moved ? `the new version ${moved}; ` : '';
  try {
    // `wx`: never through a link or over a file that appeared meanwhile.
    writeFileSync(path, kept.bytes, { flag: 'wx', mode: kept.mode });
    return { action: `${prefix}the previous version was written back`, undone: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { action: `${prefix}the previous version could not be written back (${code})`, undone: false };
  }
}
