import { lstat, readlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ScratchpadError } from '../../core/errors.js';
import { isMissing } from './fs-errors.js';
import type { FsLayout } from './fs-layout.js';

/**
 * Checks that each of `directories` (paths the layout built, so under the root as text) is also under the root
 * on disk: every component between the root and it is a real directory, not a symbolic link (or a file) that
 * leads elsewhere. A missing component is fine (there is nothing in it to touch). Otherwise `STORE_CORRUPT`
 * naming the path, before anything is read, written or deleted there — so `gc` can never delete outside the root.
 */
export async function assertRealDirectories(layout: FsLayout, directories: readonly string[]): Promise<void> {
  const checked = new Set<string>();
  for (const directory of directories) {
    const rest = relative(layout.root, directory);
    if (rest === '') continue;
    let path = layout.root;
    for (const part of rest.split(sep)) {
      path = join(path, part);
      if (checked.has(path)) continue;
      let info: Awaited<ReturnType<typeof lstat>>;
      try {
        info = await lstat(path);
      } catch (error) {
        if (isMissing(error)) break;
        throw error;
      }
      if (!info.isDirectory() || info.isSymbolicLink()) throw await notReal(path, info.isSymbolicLink());
      checked.add(path);
    }
  }
}

async function notReal(path: string, link: boolean): Promise<ScratchpadError> {
  const target = link ? await readlink(path).catch(() => undefined) : undefined;
  return new ScratchpadError(
    'STORE_CORRUPT',
    link
      ? `The fs store's ${path} is a symbolic link${target === undefined ? '' : ` to ${target}`}, not a directory inside the store; nothing was read, written or deleted through it.`
      : `The fs store's ${path} is not a directory; nothing was read, written or deleted there.`,
    {
      hint: `Something outside llm-scratchpad replaced it. Remove ${path} (it is recreated as needed), then retry.`,
      details: { path, ...(target === undefined ? {} : { target }) },
    },
  );
}
