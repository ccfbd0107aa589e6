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
  /** Fresh, private, empty folders (`/tmp`, `/var/tmp`, `/run`): the call's own temporary space. */
  privateFolders: readonly string[];
  /** Size cap of each private folder, in bytes. */
  privateFolderBytes: number;
  /** Host folders shown read-only again although under a private folder (the home when it lives in `/tmp`). */
  readOnly: readonly string[];
  /** Write roots. */
  writable: readonly string[];
  /** Paths inside write roots kept read-only (`.git/hooks`, `.git/config`: git runs them on the host). */
  readOnlyInsideWritable: readonly string[];
  /** Protected folders, replaced by an empty read-only tmpfs. */
  hiddenDirectories: readonly string[];
  /** Protected files, replaced by `/dev/null` (read-only mount: reads are empty, the file is out of reach). */
  hiddenFiles: readonly string[];
  /** The call's staging folder, shown read-only at {@link SANDBOX_RUN_FOLDER} (marker and verified code). */
  stagingDir: string;
  cwd: string;
  network: boolean;
  /** The command to run, with paths as the sandbox sees them. */
  argv: readonly string[];
}

/**
 * The bubblewrap command line for one call. Everything is read-only (`--ro-bind / /`); `/dev` and `/proc` are
 * new (its own PID namespace: no other process of the machine is visible); the private folders are fresh tmpfs;
 * the read-only and writable folders are bound back in, parents before children; the protected locations are
 * covered last, so nothing bound before can reveal them; the staging folder goes to `/run/scratchpad`. All
 * namespaces are new (user, PID, IPC, UTS, cgroup, and network unless granted), every capability is dropped, user
 * namespaces are disabled inside when bubblewrap supports it, the process gets a new session (no terminal
 * injection) and dies with its parent.
 */
export function bubblewrapArguments(layout: SandboxLayout, features: BubblewrapFeatures): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  for (const folder of layout.privateFolders) {
    if (features.tmpfsSize) args.push('--size', String(layout.privateFolderBytes));
    args.push('--tmpfs', folder);
  }
  const binds = [
    ...layout.readOnly.map((path) => ({ path, flag: '--ro-bind' })),
    ...layout.writable.map((path) => ({ path, flag: '--bind' })),
    ...layout.readOnlyInsideWritable.map((path) => ({ path, flag: '--ro-bind' })),
  ].sort((left, right) => depth(left.path) - depth(right.path));
  for (const { path, flag } of binds) args.push(flag, path, path);
  for (const path of layout.hiddenDirectories)
    args.push('--perms', '0555', '--tmpfs', path, '--remount-ro', path);
  for (const path of layout.hiddenFiles) args.push('--ro-bind', '/dev/null', path);
  args.push('--ro-bind', layout.stagingDir, SANDBOX_RUN_FOLDER);
  args.push('--unshare-all', '--unshare-user');
  if (layout.network) args.push('--share-net');
  if (features.disableUserNamespaces) args.push('--disable-userns');
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session', '--chdir', layout.cwd, '--');
  args.push(...layout.argv);
  return args;
}

function depth(path: string): number {
  return path.split('/').filter((part) => part !== '').length;
}
