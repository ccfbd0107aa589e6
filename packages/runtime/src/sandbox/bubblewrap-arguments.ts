import type { RunFolderEntries } from './run-folder.js';
import { SANDBOX_RUN_FOLDER } from './sandbox-marker.js';

/** What a bubblewrap build supports beyond the basics (older builds lack these flags). */
export interface BubblewrapFeatures {
  /** `--disable-userns` (bubblewrap 0.8+): no user namespaces inside, so no way to regain capabilities. */
  disableUserNamespaces: boolean;
  /** `--size` for `--tmpfs` (bubblewrap 0.7+). */
  tmpfsSize: boolean;
}

/** Everything one call's mount namespace is made of, as host paths. */
export interface SandboxLayout {
  /** `/run` rebuilt read-only from its host entries (see `runFolderEntries`), so that the run folder fits in it. */
  runFolder: RunFolderEntries;
  /** Size cap of the call's temporary folder and of `/dev/shm` (memory-backed), in bytes. */
  temporaryBytes: number;
  /** Host folders shown read-only again although under a folder mounted over. */
  readOnly: readonly string[];
  /** Write roots. */
  writable: readonly string[];
  /** Folders inside write roots bound onto themselves, writable: mount points cannot be renamed (`pinned-folders.ts`). */
  pinned: readonly string[];
  /** Paths inside write roots kept read-only (every repository's git metadata: git runs what it names on the host). */
  readOnlyInsideWritable: readonly string[];
  /** Protected folders, replaced by an empty read-only tmpfs. */
  hiddenDirectories: readonly string[];
  /** Protected files, replaced by `/dev/null` (read-only mount: reads are empty, the file is out of reach). */
  hiddenFiles: readonly string[];
  /** The call's staging folder, shown read-only at {@link SANDBOX_RUN_FOLDER} (marker and verified code). */
  stagingDir: string;
  /** Where the call's private temporary folder (its `TMPDIR`, a fresh tmpfs) is mounted, inside the run folder. */
  temporaryFolder: string;
  /** File descriptor bubblewrap reads the system-call filter from (`unix-socket-filter.ts`), if any. */
  seccompFd?: number;
  cwd: string;
  network: boolean;
  /** The command to run, with paths as the sandbox sees them. */
  argv: readonly string[];
}

/**
 * The bubblewrap command line for one call. Everything is read-only (`--ro-bind / /`), `/tmp` included; `/dev`
 * and `/proc` are new (its own PID namespace: no other process of the machine is visible), `/dev/shm` a capped
 * tmpfs and `/dev` read-only; `/run` is rebuilt read-only from its host entries; the read-only and writable
 * folders are bound back in, parents before children; the protected locations are covered next, so nothing
 * bound before can reveal them; the staging folder goes to `/run/scratchpad` with the call's temporary folder (a
 * capped tmpfs) inside it; the system-call filter, when given, refuses unix sockets. All
 * namespaces are new (user, PID, IPC, UTS, cgroup, and network unless granted), every capability is dropped, user
 * namespaces are disabled inside when bubblewrap supports it, the process gets a new session (no terminal
 * injection) and dies with its parent.
 */
export function bubblewrapArguments(layout: SandboxLayout, features: BubblewrapFeatures): string[] {
  const size = features.tmpfsSize ? ['--size', String(layout.temporaryBytes)] : [];
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  args.push('--tmpfs', layout.runFolder.folder);
  for (const path of layout.runFolder.shown) args.push('--ro-bind-try', path, path);
  for (const { path, target } of layout.runFolder.links) args.push('--symlink', target, path);
  const binds = [
    ...layout.readOnly.map((path) => ({ path, flag: '--ro-bind' })),
    ...layout.writable.map((path) => ({ path, flag: '--bind' })),
    ...layout.pinned.map((path) => ({ path, flag: '--bind' })),
    ...layout.readOnlyInsideWritable.map((path) => ({ path, flag: '--ro-bind' })),
  ].sort((left, right) => depth(left.path) - depth(right.path));
  for (const { path, flag } of binds) args.push(flag, path, path);
  for (const path of layout.hiddenDirectories)
    args.push('--perms', '0555', '--tmpfs', path, '--remount-ro', path);
  for (const path of layout.hiddenFiles) args.push('--ro-bind', '/dev/null', path);
  args.push('--ro-bind', layout.stagingDir, SANDBOX_RUN_FOLDER);
  args.push('--remount-ro', layout.runFolder.folder, '--remount-ro', '/dev');
  args.push(...size, '--tmpfs', '/dev/shm', ...size, '--tmpfs', layout.temporaryFolder);
  args.push('--unshare-all', '--unshare-user');
  if (layout.seccompFd !== undefined) args.push('--seccomp', String(layout.seccompFd));
  if (layout.network) args.push('--share-net');
  if (features.disableUserNamespaces) args.push('--disable-userns');
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--chdir', layout.cwd, '--');
  args.push(...layout.argv);
  return args;
}

function depth(path: string): number {
  return path.split('/').filter((part) => part !== '').length;
}
