import { memoryErrors } from './memory-errors.js';

/** The directory every memory path lives under. */
export const MEMORY_ROOT = '/memories';

/** A memory path after the SDK's checks: normalized, inside {@link MEMORY_ROOT}. */
export interface MemoryPath {
  /** What the caller wrote (the SDK echoes it verbatim in its messages). */
  readonly input: string;
  /** Normalized: `/memories` or `/memories/a/b`, no `.`/`..`/empty segments, no trailing slash. */
  readonly path: string;
  /** The segments below the root (`[]` for the root). */
  readonly segments: readonly string[];
}

/**
 * Checks and normalizes a memory path the way `BetaLocalFilesystemMemoryTool.validatePath` does, without a real
 * directory: the prefix check is a plain `startsWith('/memories')` (so `/memoriesX/a` means `/memories/X/a`),
 * one `/` after the prefix is dropped, `.`, `..` and empty segments resolve lexically, and a result outside
 * `/memories` is an escape. Backslashes, `%2f` and other encodings are ordinary file-name characters, as on the
 * SDK's POSIX filesystem. A path that climbs above the parent of `/memories` is always an escape: the SDK would
 * accept it only if it named the host's directories back down, which a model cannot know and we do not expose.
 */
export function resolveMemoryPath(input: string): MemoryPath {
  if (!input.startsWith(MEMORY_ROOT)) throw memoryErrors.mustStartWithRoot(input);
  const relative = input.slice(MEMORY_ROOT.length).replace(/^\//, '');
  // Resolved relative to the root's parent, whose only known child is `memories`.
  const stack = ['memories'];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (stack.length === 0) throw memoryErrors.wouldEscape(input);
      stack.pop();
    } else {
      stack.push(segment);
    }
  }
  if (stack[0] !== 'memories') throw memoryErrors.wouldEscape(input);
  const segments = stack.slice(1);
  const path = segments.length === 0 ? MEMORY_ROOT : `${MEMORY_ROOT}/${segments.join('/')}`;
  if (path.includes('\0')) throw memoryErrors.nulByte(path);
  return { input, path, segments };
}

/** The parent directory of a normalized path (`/memories` for a top-level item and for the root itself). */
export function parentPath(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 || path === MEMORY_ROOT ? MEMORY_ROOT : path.slice(0, cut);
}

/** The last segment of a normalized path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The directories strictly between the root and `path`, outermost first (`/memories/a`, `/memories/a/b` for `…/a/b/c`). */
export function ancestorDirectories(path: string): string[] {
  const ancestors: string[] = [];
  for (let parent = parentPath(path); parent !== MEMORY_ROOT; parent = parentPath(parent))
    ancestors.unshift(parent);
  return ancestors;
}

/** True when `path` is `directory` or below it. */
export function isWithin(path: string, directory: string): boolean {
  return path === directory || path.startsWith(`${directory}/`);
}

/**
 * The form of a path that names a stored node: lone UTF-16 surrogates become U+FFFD, as they do when the SDK's
 * filesystem encodes a file name to UTF-8 (so `a\uD800` and `a\uFFFD` are one file on both).
 */
export function storedForm(path: string): string {
  return path.replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
}
