import RE2 from 're2';
import { ScratchpadError } from './errors.js';

/** Options for {@link compilePattern}. */
export interface PatternOptions {
  ignoreCase?: boolean;
}

/** A compiled line pattern: RE2 (linear time, no backtracking) or a plain literal for `Buffer.indexOf`. */
export type CompiledPattern =
  | {
      kind: 're2';
      source: string;
      regex: RE2;
      /** True when no match can contain a newline, so a match's last byte is on the line where it starts. */
      lineLocal: boolean;
    }
  | { kind: 'literal'; source: string; needle: Buffer };

const META = /[\\^$.|?*+()[\]{}]/;

/**
 * Compiles a user or model supplied pattern. Patterns run on RE2, so a pathological pattern cannot hang the
 * process; features RE2 lacks (lookaround, backreferences) are an `INVALID_REGEX` error that says so.
 * A pattern without metacharacters becomes a literal search (faster).
 */
export function compilePattern(pattern: string, options: PatternOptions = {}): CompiledPattern {
  if (typeof pattern !== 'string' || pattern.length === 0) {
    throw new ScratchpadError('INVALID_REGEX', 'The pattern is empty.', {
      hint: 'Give a regular expression, e.g. "ERROR|WARN".',
    });
  }
  if (pattern.length > 4096) {
    throw new ScratchpadError(
      'INVALID_REGEX',
      `The pattern is ${pattern.length} characters long; the limit is 4096.`,
      {
        hint: 'Use a shorter pattern.',
      },
    );
  }
  if (!options.ignoreCase && !META.test(pattern)) {
    return { kind: 'literal', source: pattern, needle: Buffer.from(pattern, 'utf8') };
  }
  try {
    const regex = new RE2(pattern, options.ignoreCase ? 'gmi' : 'gm');
    return { kind: 're2', source: pattern, regex, lineLocal: !canMatchNewline(pattern) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const unsupported = /\(\?[=!<]|\\[1-9]/.test(pattern);
    throw new ScratchpadError(
      'INVALID_REGEX',
      `Invalid regular expression ${JSON.stringify(pattern)}: ${reason}`,
      {
        hint: unsupported
          ? 'Patterns use RE2 syntax: lookahead, lookbehind and backreferences are not supported. Match the line more loosely instead.'
          : 'Check the pattern (RE2 syntax, like JavaScript without lookaround or backreferences); escape literal characters such as ( [ . * with a backslash.',
        details: { pattern },
        cause: error,
      },
    );
  }
}

/**
 * Finds the first match in `buffer` at or after byte `from` (and before `to`).
 * Returns the match's byte offset or -1.
 */
export function findMatch(pattern: CompiledPattern, buffer: Buffer, from: number, to: number): number {
  if (pattern.kind === 'literal') {
    const at = buffer.indexOf(pattern.needle, from);
    return at === -1 || at >= to ? -1 : at;
  }
  const regex = pattern.regex;
  regex.lastIndex = from;
  const match = regex.exec(buffer);
  if (match === null) return -1;
  return match.index < to ? match.index : -1;
}

/**
 * A byte on the first line at or after `from` (and before `to`) that holds a match, or -1. Cheaper than
 * {@link findMatch} when only the matching lines matter (counting): for a line-local RE2 pattern it uses
 * `test()`, which reports where the match ends without building a match object (about 2x faster on many matches).
 */
export function findMatchingLine(pattern: CompiledPattern, buffer: Buffer, from: number, to: number): number {
  if (pattern.kind === 'literal' || !pattern.lineLocal) return findMatch(pattern, buffer, from, to);
  const regex = pattern.regex;
  regex.lastIndex = from;
  if (!regex.test(buffer)) return -1;
  const end = regex.lastIndex;
  // At the boundary only exec can tell an empty match at `to` (outside) from one ending there (inside).
  if (end >= to) return findMatch(pattern, buffer, from, to);
  // A non-empty match ends after its last byte, which is on its line; an empty match at a line start is that line.
  return end > from && buffer[end - 1] !== 10 ? end - 1 : end;
}

/**
 * False only when `pattern` certainly cannot match a newline: every escape is one of `\\d \\w \\S \\b \\B` or
 * escaped punctuation, no class is negated, no inline flag, no raw control character (`.` excludes `\\n` in RE2).
 */
function canMatchNewline(pattern: string): boolean {
  if (/[\u0000-\u001f]|\[\^|\(\?/.test(pattern)) return true;
  for (let index = 0; index < pattern.length; index++) {
    if (pattern[index] !== '\\') continue;
    const next = pattern[index + 1] ?? '';
    if (/[A-Za-z0-9]/.test(next) && !'dwSbB'.includes(next)) return true;
    index++;
  }
  return false;
}
