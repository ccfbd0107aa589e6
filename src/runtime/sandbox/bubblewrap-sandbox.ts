import { lstatSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { resolveEntry } from '../executors/resolve-entry.js';
import { type BubblewrapFeatures, bubblewrapArguments } from './bubblewrap-arguments.js';
import { pathContains } from './path-contains.js';
import { existingLocations } from './protected-locations.js';
import { declaresNetwork, type Sandbox, type SandboxRequest } from './sandbox.js';
import { SANDBOX_ENVIRONMENT_VARIABLE, SANDBOX_RUN_FOLDER } from './sandbox-marker.js';

/** Folders replaced by a fresh tmpfs in every call (when they are real folders on the host). */
export const PRIVATE_FOLDERS: readonly string[] = ['/tmp', '/var/tmp', '/run'];
/** Size cap of each private folder (memory-backed), in bytes. */
export const PRIVATE_FOLDER_BYTES = 1024 * 1024 * 1024;

/** Settings of {@link createBubblewrapSandbox}; paths are real (symbolic links resolved). */
export interface BubblewrapSandboxConfig {
  bwrapPath: string;
  version: string;
  features: BubblewrapFeatures;
  /** The user's home folder: shown read-only (it stays `$HOME` inside). */
  home: string;
  /** Folders executors may write in (checked by `resolveWriteRoots`). */
  writeRoots: readonly string[];
  /** Every protected location (home-relative ones already joined to each home); hidden when it exists. */
  protectedPaths: readonly string[];
  /** Executors given the network although their manifest declares no `net:*` capability. */
  networkGrants: readonly string[];
  /** Real folders among {@link PRIVATE_FOLDERS} on this host. */
  privateFolders: readonly string[];
}

/**
 * The Linux backend: each call runs under bubblewrap with the filesystem read-only except its write roots and a
 * private `/tmp`, the protected locations empty, its own PID namespace and `/proc`, no network unless the executor
 * declares it or is granted it, no capabilities, and the verified copy of its code mounted read-only at
 * `/run/scratchpad/executor`. The protected locations are looked up again at each call.
 */
export function createBubblewrapSandbox(config: BubblewrapSandboxConfig): Sandbox {
  const writable =
    config.writeRoots.length > 0 ? `write: ${config.writeRoots.join(', ')}` : 'nothing writable';
  return {
    status: 'bubblewrap',
    description: `bubblewrap ${config.version} (${writable}; private /tmp)`,
    async plan(request: SandboxRequest) {
      const network = declaresNetwork(request.capabilities) || config.networkGrants.includes(request.name);
      writeFileSync(join(request.stagingDir, 'sandbox'), 'bubblewrap\n', { mode: 0o444, flag: 'wx' });

      const underPrivate = (path: string) =>
        config.privateFolders.some((folder) => pathContains(folder, path));
      const readOnly = [config.home, request.cwd]
        .filter(underPrivate)
        .filter((path) => !config.writeRoots.includes(path));
      if (underPrivate(process.execPath)) readOnly.push(dirname(process.execPath));
      if (network) {
        // /etc/resolv.conf often points into /run (systemd-resolved): show the file it points at.
        const resolver = existingLocations(['/etc/resolv.conf']);
        readOnly.push(...resolver.files.filter(underPrivate));
      }
      const shown = [...readOnly, ...config.writeRoots];
      const shownAgain = (path: string) =>
        !underPrivate(path) || shown.some((folder) => pathContains(folder, path));
      const found = existingLocations([...config.protectedPaths, dirname(request.stagingDir)]);
      const directories = found.directories.filter(shownAgain);
      // A location inside another hidden folder is hidden with it (and could not be mounted on inside it).
      const visible = (path: string) =>
        shownAgain(path) && !directories.some((folder) => folder !== path && pathContains(folder, path));
      const insideRoots = gitFilesInside(config.writeRoots);
      const args = bubblewrapArguments(
        {
          privateFolders: config.privateFolders,
          privateFolderBytes: PRIVATE_FOLDER_BYTES,
          readOnly,
          writable: config.writeRoots,
          readOnlyInsideWritable: insideRoots,
          hiddenDirectories: directories.filter(visible),
          hiddenFiles: found.files.filter(visible),
          stagingDir: request.stagingDir,
          cwd: request.cwd,
          network,
          argv: resolveEntry(
            request.entry,
            join(SANDBOX_RUN_FOLDER, relative(request.stagingDir, request.codeDir)),
          ),
        },
        config.features,
      );
      return {
        ok: true,
        command: config.bwrapPath,
        args,
        cwd: request.cwd,
        // bubblewrap itself is PID 1 inside and its environment is readable there: it gets only the scrubbed one.
        env: { ...request.env, TMPDIR: '/tmp', [SANDBOX_ENVIRONMENT_VARIABLE]: 'bubblewrap' },
        network,
      };
    },
  };
}

/** `.git/hooks` and `.git/config` of each write root: git runs what they name on the host. */
function gitFilesInside(roots: readonly string[]): string[] {
  return roots
    .flatMap((root) => [join(root, '.git', 'hooks'), join(root, '.git', 'config')])
    .filter((path) => {
      try {
        return !lstatSync(path).isSymbolicLink();
      } catch {
        return false;
      }
    });
}
