import RE2 from 're2';
import { ScratchpadError } from './errors.js';

/** Options for {@link compilePattern}. */
export interface PatternOptions {
  ignoreCase?: boolean;
}

/** A compiled line pattern: RE2 (linear time, no backtracking) or a plain literal for `Buffer.indexOf`. */
export type CompiledPattern =
  | { kind: 're2'; source: string; regex: RE2 }
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
    return { kind: 're2', source: pattern, regex: new RE2(pattern, options.ignoreCase ? 'gmi' : 'gm') };
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
