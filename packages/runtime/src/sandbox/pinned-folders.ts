import { dirname } from 'node:path';
import { pathContains } from './path-contains.js';

/**
 * The folders to pin so that none of `targets` can be moved: every folder between the write root holding a target
 * and the target itself (both excluded: a write root is already a mount point, and each target is mounted on
 * too). Renaming or removing a mount point fails with `EBUSY`, so a pinned folder, once bound onto itself, can be
 * written in but neither renamed nor removed, and a target below it stays where the mounts put it (issue 26:
 * `mv .sp .sp2` unmasked a hidden store, `mv sub sub2` carried a read-only `.git` away). Folders inside
 * `covered` (read-only or hidden folders) are left out: binding them writable again would undo the cover.
 * Sorted parents first.
 */
export function pinnedFolders(
  targets: readonly string[],
  writeRoots: readonly string[],
  covered: readonly string[],
): string[] {
  const pinned = new Set<string>();
  for (const target of targets) {
    const root = writeRoots
      .filter((candidate) => candidate !== target && pathContains(candidate, target))
      .sort((left, right) => right.length - left.length)[0];
    if (!root) continue;
    for (
      let folder = dirname(target);
      folder !== root && pathContains(root, folder);
      folder = dirname(folder)
    )
      pinned.add(folder);
  }
  return [...pinned]
    .filter((folder) => !writeRoots.includes(folder))
    .filter((folder) => !covered.some((cover) => pathContains(cover, folder)))
    .sort((left, right) => depth(left) - depth(right));
}

function depth(path: string): number {
  return path.split('/').filter((part) => part !== '').length;
}
