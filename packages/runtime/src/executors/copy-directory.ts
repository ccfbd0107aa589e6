import { copyFile, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Copies a folder tree of regular files (folders created with mode 0700). Refuses symbolic links and special
 * files, which an executor folder must not contain.
 */
export async function copyDirectory(source: string, target: string): Promise<void> {
  await mkdir(target, { recursive: true, mode: 0o700 });
  for (const entry of await readdir(source, { withFileTypes: true })) {
    const from = join(source, entry.name);
    const to = join(target, entry.name);
    const stats = await lstat(from);
    if (stats.isDirectory()) await copyDirectory(from, to);
    else if (stats.isFile()) await copyFile(from, to);
    else throw new Error(`cannot copy ${from}: only regular files and folders are allowed`);
  }
}
