/**
 * Drops files from the kernel's page cache, for cold-read benchmarks: `posix_fadvise(POSIX_FADV_DONTNEED)` on each
 * file, through GNU dd (`oflag=nocache` with `count=0` advises the whole file and writes nothing). Node has no
 * fadvise binding; dd is in coreutils. Only clean pages are dropped: sync the files first (the store's side files
 * are fdatasync-ed by every write; checkpoint SQLite's WAL). `fincore` (util-linux) verifies it when present.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Why cold reads cannot be measured here, or undefined when they can. */
export function pageCacheUnavailable() {
  const probe = spawnSync('dd', ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0 || !probe.stdout.includes('coreutils'))
    return 'GNU dd (coreutils) is not available to call posix_fadvise(DONTNEED)';
  return undefined;
}

/** Asks the kernel to drop `paths` from the page cache. */
export function dropFromPageCache(paths) {
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const result = spawnSync(
      'dd',
      [`of=${path}`, 'oflag=nocache', 'conv=notrunc,fdatasync', 'count=0', 'status=none'],
      { encoding: 'utf8' },
    );
    if (result.status !== 0)
      throw new Error(`dd could not drop ${path} from the page cache: ${result.stderr}`);
  }
}

/** Bytes of `path` resident in the page cache (via fincore), or undefined when fincore is missing. */
export function residentBytes(path) {
  const result = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', path], {
    encoding: 'utf8',
  });
  if (result.status !== 0) return undefined;
  return Number(result.stdout.trim());
}
