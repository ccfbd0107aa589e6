import { type Matcher, RE2JS } from 're2js';

/** Flags for {@link LinearRegex.compile}. */
export interface LinearRegexFlags {
  /** Letters match either case (Unicode simple folding, as RE2's `(?i)`). */
  ignoreCase?: boolean;
  /** `^` and `$` match at line starts and ends too (JavaScript's `m`). Default true. */
  multiline?: boolean;
  /** `.` matches `\n` too (JavaScript's `s`). */
  dotAll?: boolean;
}

/** One match: where it starts and ends (UTF-16 indexes for a string input, byte offsets for bytes). */
export interface LinearMatch {
  start: number;
  end: number;
}

/** Text to search: a JavaScript string, or UTF-8 bytes (offsets are then byte offsets). */
export type LinearInput = string | Uint8Array;

/**
 * A regular expression that runs in time linear in its input whatever the pattern (RE2's automata, in pure
 * JavaScript through re2js): a model's or user's pathological pattern cannot hang the process, and no native
 * module is needed (decision 014). The syntax is JavaScript's without lookaround or backreferences.
 *
 * A matcher is kept for the last input searched, so a loop of `find` calls over one buffer does not wrap it again.
 */
export class LinearRegex {
  readonly source: string;
  readonly flags: LinearRegexFlags;
  readonly #compiled: RE2JS;
  #matcher: Matcher | undefined;
  #matcherInput: LinearInput | undefined;

  private constructor(source: string, flags: LinearRegexFlags, compiled: RE2JS) {
    this.source = source;
    this.flags = flags;
    this.#compiled = compiled;
  }

  /**
   * Compiles `source` (JavaScript syntax; `(?<name>…)`, `\uXXXX`, `\/` are translated for RE2).
   * @throws Error (re2js's) when the pattern does not compile; callers turn it into their typed error.
   */
  static compile(source: string, flags: LinearRegexFlags = {}): LinearRegex {
    let bits = 0;
    if (flags.ignoreCase) bits |= RE2JS.CASE_INSENSITIVE;
    if (flags.multiline !== false) bits |= RE2JS.MULTILINE;
    if (flags.dotAll) bits |= RE2JS.DOTALL;
    return new LinearRegex(source, flags, RE2JS.compile(RE2JS.translateRegExp(source), bits));
  }

  /** Capturing groups in the pattern (not counting the whole match). */
  get groupCount(): number {
    return this.#compiled.groupCount();
  }

  /** The first match at or after `from`, or undefined. */
  find(input: LinearInput, from = 0): LinearMatch | undefined {
    const matcher = this.#matcherFor(input);
    if (from > inputLength(input) || !matcher.find(from)) return undefined;
    return { start: matcher.start(), end: matcher.end() };
  }

  /** Whether the pattern matches anywhere at or after `from`. */
  test(input: LinearInput, from = 0): boolean {
    return this.find(input, from) !== undefined;
  }

  /**
   * The first match at or after `from` with its groups' texts (index 0 is the whole match; a group that took no
   * part is undefined), or undefined. On bytes, the texts are decoded as UTF-8.
   */
  exec(input: LinearInput, from = 0): (LinearMatch & { groups: Array<string | undefined> }) | undefined {
    const matcher = this.#matcherFor(input);
    if (from > inputLength(input) || !matcher.find(from)) return undefined;
    const groups: Array<string | undefined> = [];
    for (let group = 0; group <= matcher.groupCount(); group++)
      groups.push(matcher.group(group) ?? undefined);
    return { start: matcher.start(), end: matcher.end(), groups };
  }

  /** Every match from `from` on, left to right, not overlapping (an empty match moves on by one). */
  *matches(input: LinearInput, from = 0): Generator<LinearMatch> {
    const length = inputLength(input);
    let position = from;
    while (position <= length) {
      const match = this.find(input, position);
      if (match === undefined) return;
      yield match;
      position = match.end > match.start ? match.end : match.end + 1;
    }
  }

  #matcherFor(input: LinearInput): Matcher {
    if (this.#matcher === undefined || this.#matcherInput !== input) {
      this.#matcher = this.#compiled.matcher(input);
      this.#matcherInput = input;
    }
    return this.#matcher;
  }
}

function inputLength(input: LinearInput): number {
  return input.length;
}
