import { realpathSync } from 'node:fs';
import { posix } from 'node:path';
import { expandBraces } from './brace-expansion.js';
import { expandHome, type GuardContext } from './guard-context.js';
import { normalizePosixPath, resolvePosixPath } from './posix-path.js';
import { isGlob, matchSensitivePath, type SensitivePathRule } from './sensitive-path-rules.js';
import { textVariants } from './text-variants.js';

/** A protected path found in an argument string. `path` is for tests and diagnostics: never log it. */
export interface SensitivePathFinding {
  rule: SensitivePathRule;
  path: string;
  /** `text`: the path as written (after normalization); `symlink`: where an existing symbolic link leads. */
  via: 'text' | 'symlink';
}

/** Separators between words in prose, shell commands, URLs and `key=value` options. */
const WORD_SEPARATORS = /[\s;|&<>()`'"=:]+/;
/** Directory changes followed per argument string. */
const MAX_DIRECTORY_CHANGES = 16;
const PATH_CHARACTERS = /[/.~*?[{]/;
/** Paths longer than this are not resolved on disk (the kernel would refuse them anyway). */
const MAX_RESOLVED_PATH = 4096;

/**
 * Looks for a protected path anywhere in `text`: the whole value, and every word of it (shell commands, prose,
 * URLs such as `file:///etc/passwd`, `--file=/etc/shadow`). Each spelling from `textVariants` is tried, after
 * expanding `~`, `$HOME` and `$USER` and shell braces; `..` and duplicate slashes are normalized; relative paths
 * are also resolved against the working directory and against every `cd`/`pushd` target in the text; existing
 * symbolic links are followed (the real path of the longest existing prefix, `..` applied after the link as the
 * kernel does); globs match when they could expand into a protected name.
 */
export function findSensitivePath(
  text: string,
  context: GuardContext,
  explicitBases: readonly string[] = [],
): SensitivePathFinding | undefined {
  const seen = new Set<string>();
  for (const variant of textVariants(text)) {
    const expanded = expandHome(variant, context);
    const bases = [...explicitBases, ...changeDirectoryTargets(expanded, context.cwd)];
    const whole = expanded.trim();
    if (whole !== '' && !/\s/.test(whole)) {
      const found =
        checkPath(whole, context, seen) ?? checkRelative(whole, [context.cwd, ...bases], context, seen);
      if (found) return found;
    }
    for (const word of expanded.split(WORD_SEPARATORS)) {
      // Without a cd target or cwd argument, a word can only name a protected path through one of these.
      if (bases.length === 0 && !PATH_CHARACTERS.test(word)) continue;
      for (const piece of expandBraces(word).flatMap((expansion) => expansion.split(/[,{}]+/))) {
        if (piece === '') continue;
        const found =
          checkPath(piece, context, seen) ??
          (piece.includes('/') || piece.startsWith('.')
            ? checkRelative(piece, [context.cwd], context, seen)
            : undefined) ??
          checkRelative(piece, bases, context, seen);
        if (found) return found;
      }
    }
  }
  return undefined;
}

function checkRelative(
  piece: string,
  bases: readonly string[],
  context: GuardContext,
  seen: Set<string>,
): SensitivePathFinding | undefined {
  if (piece.startsWith('/')) return undefined;
  for (const base of bases) {
    const found = checkPath(`${base}/${piece}`, context, seen);
    if (found) return found;
  }
  return undefined;
}

function checkPath(path: string, context: GuardContext, seen: Set<string>): SensitivePathFinding | undefined {
  const collapsed = path.replace(/\/{2,}/g, '/');
  if (seen.has(collapsed)) return undefined;
  seen.add(collapsed);
  const normalized = normalizePosixPath(collapsed);
  const rule = matchSensitivePath(normalized);
  if (rule) return { rule, path: normalized, via: 'text' };
  if (
    !collapsed.startsWith('/') ||
    collapsed.length > MAX_RESOLVED_PATH ||
    collapsed.split('/').some(isGlob)
  ) {
    return undefined;
  }
  const real = realpathOfExistingPrefix(collapsed, context);
  if (real === undefined || real === normalized) return undefined;
  const realRule = matchSensitivePath(real);
  return realRule ? { rule: realRule, path: real, via: 'symlink' } : undefined;
}

/** The real path of the longest existing prefix of `path`, with the rest appended; bounded by the budget. */
function realpathOfExistingPrefix(path: string, context: GuardContext): string | undefined {
  let current = path;
  const rest: string[] = [];
  while (context.realpathBudget.remaining > 0) {
    context.realpathBudget.remaining -= 1;
    try {
      const real = realpathSync.native(current);
      return normalizePosixPath([real, ...rest.reverse()].join('/'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || current === '/' || current === '') return undefined;
      rest.push(posix.basename(current));
      current = posix.dirname(current);
    }
  }
  return undefined;
}

/**
 * Where the first `cd X`, `pushd X` of a command take it, each resolved from the previous one. Every target is a
 * base for every word, so the count is bounded: work stays linear in the argument's size.
 */
function changeDirectoryTargets(text: string, cwd: string): string[] {
  const targets: string[] = [];
  let current = cwd;
  for (const match of text.matchAll(/(?:^|[\s;|&(){}`])(?:cd|pushd)\s+([^\s;|&(){}`]+)/g)) {
    if (targets.length >= MAX_DIRECTORY_CHANGES) break;
    current = resolvePosixPath(current, match[1]!);
    targets.push(current);
  }
  return targets;
}
