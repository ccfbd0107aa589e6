import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Executor } from './executor.js';
import { MANIFEST_FILE } from './executor-manifest.js';
import type { TrustedKey } from './signing-key.js';
import { verifyExecutor } from './verify-executor.js';

/** Options for {@link loadCatalog}. */
export interface LoadCatalogOptions {
  /**
   * Catalog folders, in priority order. Each is either one executor folder (it holds `manifest.json`) or a folder
   * of executor folders; hidden sub-folders (`.name`) are skipped. A folder that does not exist is skipped.
   */
  dirs: readonly string[];
  trustedKeys: readonly TrustedKey[];
}

/** An executor folder the loader refused, and why. */
export interface DiscardedExecutor {
  dir: string;
  name?: string;
  reason: string;
}

/** Result of {@link loadCatalog}. */
export interface LoadCatalogResult {
  /** Verified executors, sorted by name. */
  executors: Executor[];
  discarded: DiscardedExecutor[];
}

/**
 * Loads the executor catalog: verifies every executor folder found in `dirs` (signature by a trusted key, code
 * digest) and keeps only those that pass. Every refused folder is reported with its reason; when two folders
 * declare the same name, the first (by `dirs` order, then folder name) wins and the other is reported.
 */
export async function loadCatalog(options: LoadCatalogOptions): Promise<LoadCatalogResult> {
  const executors = new Map<string, Executor>();
  const discarded: DiscardedExecutor[] = [];
  for (const dir of options.dirs) {
    for (const candidate of await executorFolders(resolve(dir))) {
      if (candidate.symlink) {
        discarded.push({
          dir: candidate.path,
          reason: 'executor folder is a symbolic link: copy the folder instead',
        });
        continue;
      }
      const result = await verifyExecutor(candidate.path, options.trustedKeys);
      if (!result.ok) {
        discarded.push({
          dir: candidate.path,
          ...(result.name === undefined ? {} : { name: result.name }),
          reason: result.reason,
        });
        continue;
      }
      const existing = executors.get(result.executor.name);
      if (existing) {
        discarded.push({
          dir: candidate.path,
          name: result.executor.name,
          reason: `duplicate name ${result.executor.name}: already loaded from ${existing.dir}`,
        });
        continue;
      }
      executors.set(result.executor.name, result.executor);
    }
  }
  const sorted = [...executors.values()].sort((left, right) => (left.name < right.name ? -1 : 1));
  return { executors: sorted, discarded };
}

interface Candidate {
  path: string;
  symlink: boolean;
}

async function executorFolders(dir: string): Promise<Candidate[]> {
  if (await isFile(join(dir, MANIFEST_FILE))) return [{ path: dir, symlink: false }];
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
  return entries
    .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith('.'))
    .map((entry) => ({ path: join(dir, entry.name), symlink: entry.isSymbolicLink() }))
    .sort((left, right) => (left.path < right.path ? -1 : 1));
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (stats) => stats.isFile(),
    () => false,
  );
}
