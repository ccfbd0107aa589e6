import { type Dirent, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The host's `/run` as one call shows it: each entry bound back read-only, links recreated, sockets left out. */
export interface RunFolderEntries {
  folder: string;
  /** Folders and files bound back read-only (their submounts included). */
  shown: readonly string[];
  /** Symbolic links, recreated as they are (`/run/shm -> /dev/shm`). */
  links: readonly { path: string; target: string }[];
}

/**
 * Lists `folder` (the host's `/run`) once, at each call, so that the call sees it as it is now: a tmpfs in which
 * every entry is bound back read-only, which leaves room for the run folder (`/run/scratchpad`) on a read-only
 * host `/run`. Sockets directly in it (`/run/docker.sock`) are left out; those deeper are refused by the
 * system-call filter (`unix-socket-filter.ts`). One directory read: `/run` holds tens of entries.
 */
export function runFolderEntries(folder = '/run'): RunFolderEntries {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return { folder, shown: [], links: [] };
  }
  const shown: string[] = [];
  const links: { path: string; target: string }[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isSymbolicLink()) {
      try {
        links.push({ path, target: readlinkSync(path) });
      } catch {
        // Gone since the listing.
      }
    } else if (entry.isDirectory() || entry.isFile()) {
      shown.push(path);
    }
  }
  return { folder, shown, links };
}
