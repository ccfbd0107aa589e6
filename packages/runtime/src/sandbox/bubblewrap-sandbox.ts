import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { resolveEntry } from '../executors/resolve-entry.js';
import { type BubblewrapFeatures, bubblewrapArguments } from './bubblewrap-arguments.js';
import { type CgroupSupport, createCallCgroup, joinCgroupsCommand } from './call-cgroup.js';
import { type CallLimits, describeLimits, prlimitPrefix } from './call-limits.js';
import { gitRefusal } from './git-refusal.js';
import { pathContains } from './path-contains.js';
import { pinnedFolders } from './pinned-folders.js';
import { existingLocations } from './protected-locations.js';
import { RepositoryGuard } from './repository-guard.js';
import { runFolderEntries } from './run-folder.js';
import { declaresNetwork, FIRST_INHERITED_FD, type Sandbox, type SandboxRequest } from './sandbox.js';
import { SANDBOX_ENVIRONMENT_VARIABLE, SANDBOX_RUN_FOLDER } from './sandbox-marker.js';

/** The call's private temporary folder (its `TMPDIR`): a fresh tmpfs inside the run folder, gone after the call. */
export const TEMPORARY_FOLDER = `${SANDBOX_RUN_FOLDER}/tmp`;
/** Size cap of the temporary folder and of `/dev/shm` (memory-backed), in bytes. */
export const TEMPORARY_FOLDER_BYTES = 1024 * 1024 * 1024;

/** Settings of {@link createBubblewrapSandbox}; paths are real (symbolic links resolved). */
export interface BubblewrapSandboxConfig {
  bwrapPath: string;
  version: string;
  features: BubblewrapFeatures;
  /** Folders executors may write in (checked by `resolveWriteRoots`). */
  writeRoots: readonly string[];
  /** Every protected location (home-relative ones already joined to each home); hidden when it exists. */
  protectedPaths: readonly string[];
  /** Executors given the network although their manifest declares no `net:*` capability. */
  networkGrants: readonly string[];
  /** Memory, process and file-size limits of each call. */
  limits: CallLimits;
  /** The `prlimit` binary (per-process limits set inside the sandbox); absent when the machine has none. */
  prlimitPath?: string;
  /** Where each call gets a cgroup (its memory and process count as a whole); absent when nowhere. */
  cgroups?: CgroupSupport;
  /** The system-call filter refusing unix sockets (`unixSocketFilter`); absent on an architecture without one. */
  socketFilter?: Buffer;
}

/**
 * The Linux backend: each call runs under bubblewrap with the whole filesystem readable and read-only except its
 * write roots, the protected locations empty, a private temporary folder, no unix socket, its own PID namespace
 * and `/proc`, no network unless the executor declares it or is granted it, no capabilities, memory, process and
 * file-size limits, and the verified copy of its code mounted read-only at `/run/scratchpad/executor`. The
 * protected locations and `/run` are looked up again at each call.
 */
export function createBubblewrapSandbox(config: BubblewrapSandboxConfig): Sandbox {
  const protectedPaths = new Set(config.protectedPaths);
  const repositories = new RepositoryGuard(config.writeRoots, (path) => protectedPaths.has(path));
  const writable =
    config.writeRoots.length > 0 ? `write: ${config.writeRoots.join(', ')}` : 'nothing writable';
  const sockets = config.socketFilter
    ? 'no unix sockets'
    : `unix sockets NOT blocked (no system-call filter for ${process.arch})`;
  const enforcedBy = [
    config.cgroups ? `a cgroup v${config.cgroups.version} per call` : undefined,
    config.prlimitPath
      ? `prlimit${config.cgroups ? '' : ', memory per process'}`
      : 'no prlimit: process and file-size limits NOT enforced',
  ]
    .filter((part) => part !== undefined)
    .join(' and ');
  return {
    status: 'bubblewrap',
    description: `bubblewrap ${config.version} (${writable}; everything else read-only, protected locations hidden; temporary folder ${TEMPORARY_FOLDER} per call; ${sockets}; ${describeLimits(config.limits, enforcedBy)})`,
    async plan(request: SandboxRequest) {
      const network = declaresNetwork(request.capabilities) || config.networkGrants.includes(request.name);
      writeFileSync(join(request.stagingDir, 'sandbox'), 'bubblewrap\n', { mode: 0o444, flag: 'wx' });
      // Mount point of the temporary folder, inside the (read-only) run folder.
      mkdirSync(join(request.stagingDir, 'tmp'), { mode: 0o700 });
      const inheritedFiles: string[] = [];
      if (config.socketFilter) {
        const filterFile = join(request.stagingDir, 'seccomp.bpf');
        writeFileSync(filterFile, config.socketFilter, { mode: 0o444, flag: 'wx' });
        inheritedFiles.push(filterFile);
      }
      const found = existingLocations([...config.protectedPaths, dirname(request.stagingDir)]);
      // A location inside another hidden folder is hidden with it (and could not be mounted on inside it).
      const visible = (path: string) =>
        !found.directories.some((folder) => folder !== path && pathContains(folder, path));
      const cgroup = config.cgroups
        ? await createCallCgroup(config.cgroups, config.limits).catch(() => undefined)
        : undefined;
      const limits = config.prlimitPath
        ? prlimitPrefix(config.prlimitPath, config.limits, cgroup !== undefined)
        : [];
      const before = await repositories.snapshot();
      const gitMetadata = repositories.readOnlyPaths(before);
      const hiddenDirectories = found.directories.filter(visible);
      const hiddenFiles = found.files.filter(visible);
      const pinned = pinnedFolders(
        [...gitMetadata, ...before.gitmodules.keys(), ...hiddenDirectories, ...hiddenFiles],
        config.writeRoots,
        [...gitMetadata, ...hiddenDirectories],
      );
      const args = bubblewrapArguments(
        {
          runFolder: runFolderEntries(),
          temporaryBytes: TEMPORARY_FOLDER_BYTES,
          readOnly: [],
          writable: config.writeRoots,
          pinned,
          readOnlyInsideWritable: gitMetadata,
          hiddenDirectories,
          hiddenFiles,
          stagingDir: request.stagingDir,
          temporaryFolder: TEMPORARY_FOLDER,
          ...(config.socketFilter ? { seccompFd: FIRST_INHERITED_FD } : {}),
          cwd: request.cwd,
          network,
          argv: [
            ...limits,
            ...resolveEntry(
              request.entry,
              join(SANDBOX_RUN_FOLDER, relative(request.stagingDir, request.codeDir)),
            ),
          ],
        },
        config.features,
      );
      const command = cgroup
        ? joinCgroupsCommand(cgroup.procsFiles, config.bwrapPath, args)
        : { command: config.bwrapPath, args };
      return {
        ok: true,
        ...command,
        cwd: request.cwd,
        // bubblewrap itself is PID 1 inside and its environment is readable there: it gets only the scrubbed one.
        env: { ...request.env, TMPDIR: TEMPORARY_FOLDER, [SANDBOX_ENVIRONMENT_VARIABLE]: 'bubblewrap' },
        network,
        inheritedFiles,
        finish: async () => ({
          writeRoots: config.writeRoots,
          temporaryFolder: TEMPORARY_FOLDER,
          limitNotes: cgroup ? await cgroup.finish().catch(() => []) : [],
          fileSizeMb: config.limits.fileSizeMb,
        }),
        afterCall: async () => gitRefusal(request.name, await repositories.undo(before)),
      };
    },
  };
}
