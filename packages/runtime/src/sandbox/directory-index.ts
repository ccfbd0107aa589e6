import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';

/** Names that make git run code on the host when they appear in a folder (see `repository-guard.ts`). */
const GIT_ENTRY_NAMES: readonly string[] = ['.git', '.gitmodules'];

/**
 * `.git`, `.gitmodules`, `HEAD`, … in any case: on a case-insensitive filesystem (vfat, exfat, ext4 with casefold)
 * git finds `.Git` when it looks for `.git`. On a case-sensitive one the few extra names caught cost nothing.
 */
export function gitName(name: string): string {
  return name.toLowerCase();
}

/** What the index keeps of one folder. */
interface FolderRecord {
  dev: number;
  ino: number;
  /** `ctime` (ms) when the folder was listed; `-1` when it was too recent to be trusted (listed again next time). */
  ctimeMs: number;
  /** Names of the sub-folders descended into. */
  folders: string[];
  /** Names among {@link GIT_ENTRY_NAMES} found in the folder. */
  gitNames: string[];
  /** The folder is itself a git directory (`HEAD`, `objects/`, `refs/`: a bare repository); not descended into. */
  gitDirectory: boolean;
  /** Why the folder could not be listed (`EACCES`, …); it is listed again at each refresh. */
  problem?: string;
}

/** A folder's ctime closer to now than this is not trusted: a change in the same clock tick may keep it. */
const UNSETTLED_MS = 200;
/** Folders handled between two yields to the event loop. */
const FOLDERS_PER_SLICE = 1_500;

/**
 * Every folder under some roots, kept up to date cheaply: a refresh looks at each known folder's `ctime` (one
 * `lstat`) and lists again only the folders whose entries changed (creating, removing or renaming an entry changes
 * a folder's ctime, and no process without privileges can set a ctime back). Symbolic links are not followed;
 * `.git` folders, bare git directories and the `skip` folders are not descended into. A folder listed within
 * {@link UNSETTLED_MS} of its last change is listed again next time, as the kernel's coarse clock could give a
 * later change the same ctime. Refreshing yields to the event loop every {@link FOLDERS_PER_SLICE} folders.
 */
export class DirectoryIndex {
  private readonly records = new Map<string, FolderRecord>();
  /** Folders the last refresh could not look at or into, with the error code. */
  private readonly problems = new Map<string, string>();

  private readonly unsettledMs: number;

  constructor(
    private readonly roots: readonly string[],
    private readonly skip: (path: string) => boolean = () => false,
    options: { unsettledMs?: number } = {},
  ) {
    this.unsettledMs = options.unsettledMs ?? UNSETTLED_MS;
  }

  /** Brings the index up to date with the folders on disk now. */
  async refresh(): Promise<void> {
    const stack = [...this.roots];
    this.problems.clear();
    let handled = 0;
    while (stack.length > 0) {
      const folder = stack.pop() as string;
      const record = this.update(folder);
      if (record && !record.gitDirectory)
        for (const name of record.folders) stack.push(joinPath(folder, name));
      handled += 1;
      if (handled % FOLDERS_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Paths of every `.git` and `.gitmodules` entry found by the last refresh. */
  gitEntries(): string[] {
    const paths: string[] = [];
    for (const [folder, record] of this.records)
      for (const name of record.gitNames) paths.push(joinPath(folder, name));
    return paths;
  }

  /** Bare git directories (a folder holding `HEAD`, `objects/` and `refs/`) found by the last refresh. */
  gitDirectories(): string[] {
    return [...this.records].filter(([, record]) => record.gitDirectory).map(([folder]) => folder);
  }

  /**
   * Folders the last refresh could not examine, with the error code: a path too long for the system
   * (`ENAMETOOLONG`, past 4,096 bytes), a folder without read or search permission (`EACCES`). Whatever they hold
   * is unknown.
   */
  unexamined(): Map<string, string> {
    return new Map(this.problems);
  }

  /** How many folders the index holds. */
  get size(): number {
    return this.records.size;
  }

  private update(folder: string): FolderRecord | undefined {
    let stats: Stats | undefined;
    try {
      stats = lstatSync(folder, { throwIfNoEntry: false });
    } catch (error) {
      this.forget(folder);
      this.problems.set(folder, (error as NodeJS.ErrnoException).code ?? 'unknown error');
      return undefined;
    }
    const known = this.records.get(folder);
    if (!stats?.isDirectory()) {
      this.forget(folder);
      return undefined;
    }
    if (known && known.dev === stats.dev && known.ino === stats.ino && known.ctimeMs === stats.ctimeMs)
      return known;
    const record = listFolder(folder, stats, this.skip, this.unsettledMs);
    if (record.problem) this.problems.set(folder, record.problem);
    if (known)
      for (const name of known.folders)
        if (!record.folders.includes(name)) this.forget(joinPath(folder, name));
    this.records.set(folder, record);
    return record;
  }

  private forget(folder: string): void {
    const record = this.records.get(folder);
    if (!record) return;
    this.records.delete(folder);
    for (const name of record.folders) this.forget(joinPath(folder, name));
  }
}

function listFolder(
  folder: string,
  stats: Stats,
  skip: (path: string) => boolean,
  unsettledMs: number,
): FolderRecord {
  let entries: Dirent[] = [];
  let problem: string | undefined;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    problem = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  }
  const names = new Map(entries.map((entry) => [gitName(entry.name), entry]));
  const gitDirectory =
    names.has('head') && !!names.get('objects')?.isDirectory() && !!names.get('refs')?.isDirectory();
  const settled = Date.now() - stats.ctimeMs > unsettledMs;
  return {
    dev: stats.dev,
    ino: stats.ino,
    ctimeMs: settled && !problem ? stats.ctimeMs : -1,
    folders: entries
      .filter(
        (entry) =>
          entry.isDirectory() && gitName(entry.name) !== '.git' && !skip(joinPath(folder, entry.name)),
      )
      .map((entry) => entry.name),
    gitNames: entries
      .filter((entry) => GIT_ENTRY_NAMES.includes(gitName(entry.name)))
      .map((entry) => entry.name),
    gitDirectory,
    ...(problem ? { problem } : {}),
  };
}

/** `folder/name` (folders here are absolute real paths, never `/`): cheaper than `path.join` per folder. */
function joinPath(folder: string, name: string): string {
  return `${folder}/${name}`;
}
