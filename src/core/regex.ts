import { ScratchpadError } from './errors.js';
import { LinearRegex } from './linear-regex.js';

/** Options for {@link compilePattern}. */
export interface PatternOptions {
  ignoreCase?: boolean;
}

/** A compiled line pattern: a {@link LinearRegex} (linear time, no backtracking) or a plain literal for `Buffer.indexOf`. */
export type CompiledPattern =
  | {
      kind: 'regex';
      source: string;
      regex: LinearRegex;
      /** True when no match can contain a newline, so a match's last byte is on the line where it starts. */
      lineLocal: boolean;
    }
  | { kind: 'literal'; source: string; needle: Buffer };

const META = /[\\^$.|?*+()[\]{}]/;

/**
 * Compiles a user or model supplied pattern. Patterns run on RE2's automata ({@link LinearRegex}), so a
 * pathological pattern cannot hang the process; features RE2 lacks (lookaround, backreferences) are an `INVALID_REGEX` error that says so.
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
    const regex = LinearRegex.compile(pattern, { ignoreCase: options.ignoreCase === true });
    return { kind: 'regex', source: pattern, regex, lineLocal: !canMatchNewline(pattern) };
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
  const match = pattern.regex.find(buffer, from);
  return match !== undefined && match.start < to ? match.start : -1;
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
