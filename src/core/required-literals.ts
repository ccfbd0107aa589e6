/**
 * What every match of a regular expression must contain: a set of literal strings, one of which is in every
 * match. Grep scans for them with `Buffer.indexOf` and runs RE2 only on the lines that hold one (a line without
 * any cannot match).
 *
 * The parser is deliberately conservative: it understands literals, escaped punctuation, `.`, classes, the
 * `\d \w \s \b` escapes, groups, alternation and the RE2 quantifiers, and gives up (no prefilter) on anything else
 * (inline flags, named groups, `\p`, `\Q…\E`, hex escapes, a `{` that is not a repetition). With `ignoreCase`,
 * only characters without case variants count as literal (RE2 folds `k` to the Kelvin sign, `s` to `ſ`).
 */

/** At most this many alternatives are tracked (more: the requirement is dropped). */
const MAX_ALTERNATIVES = 16;
/** Exact strings longer than this stop growing (the requirement stays, the product is not taken further). */
const MAX_EXACT_LENGTH = 64;

/** Facts about a piece of a pattern. */
interface Facts {
  /** Every string the piece can match (a complete set), or null when unknown or too many. */
  exact: string[] | null;
  /** One of these non-empty strings is in every match, or null. */
  required: string[] | null;
}

class Unsupported extends Error {}

const ANY: Facts = { exact: null, required: null };
const EMPTY: Facts = { exact: [''], required: null };

/**
 * Strings one of which every match of `pattern` contains, or undefined when the pattern promises none (or uses
 * syntax this parser does not model). Never wrong in the other direction: a match without any of them is a bug
 * (property-tested against RE2).
 */
export function requiredLiterals(pattern: string, ignoreCase: boolean): string[] | undefined {
  try {
    const parser = new Parser([...pattern], ignoreCase);
    const facts = parser.alternation();
    if (!parser.done()) return undefined;
    const required = requirementOf(facts);
    return required ?? undefined;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/**
 * Every string `pattern` (case-sensitive, RE2 syntax) can match, when that is a small set of non-empty strings
 * without a newline and the pattern asserts nothing about where they are (no `^ $ \b \B \A \z`): `timeout|declined`,
 * `ERROR code=(22|39)`. A line then matches exactly when it contains one of them, and the leftmost match starts at
 * the first occurrence of any, so grep needs no regex at all. Undefined otherwise (property-tested against RE2).
 */
export function literalAlternatives(pattern: string): string[] | undefined {
  try {
    const parser = new Parser([...pattern], false);
    const exact = parser.alternation().exact;
    if (!parser.done() || parser.asserts || exact === null || exact.length === 0) return undefined;
    if (exact.some((text) => text.length === 0 || text.includes('\n'))) return undefined;
    return exact;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/** The requirement a piece gives: its own, or its exact strings when none of them is empty. */
function requirementOf(facts: Facts): string[] | null {
  const candidates = [facts.required, facts.exact].filter(
    (set): set is string[] => set !== null && set.length > 0 && set.every((text) => text.length > 0),
  );
  return best(candidates);
}

/** The most selective set: longest shortest string, then fewest strings. */
function best(sets: readonly string[][]): string[] | null {
  let chosen: string[] | null = null;
  for (const set of sets) {
    if (chosen === null || score(set) > score(chosen)) chosen = set;
  }
  return chosen;
}

function score(set: readonly string[]): number {
  const shortest = Math.min(...set.map((text) => Buffer.byteLength(text)));
  return Math.min(shortest, 16) * 100 - set.length;
}

class Parser {
  /** True once the pattern used an assertion (`^ $ \b \B \A \z`), which exact strings do not express. */
  asserts = false;
  #at = 0;
  readonly #chars: string[];
  readonly #ignoreCase: boolean;

  constructor(chars: string[], ignoreCase: boolean) {
    this.#chars = chars;
    this.#ignoreCase = ignoreCase;
  }

  done(): boolean {
    return this.#at >= this.#chars.length;
  }

  #peek(offset = 0): string | undefined {
    return this.#chars[this.#at + offset];
  }

  alternation(): Facts {
    const branches = [this.#concatenation()];
    while (this.#peek() === '|') {
      this.#at++;
      branches.push(this.#concatenation());
    }
    if (branches.length === 1) return branches[0] as Facts;
    let exact: string[] | null = [];
    const required: string[] = [];
    let allRequired = true;
    for (const branch of branches) {
      exact = exact !== null && branch.exact !== null ? [...exact, ...branch.exact] : null;
      const requirement = requirementOf(branch);
      if (requirement === null) allRequired = false;
      else required.push(...requirement);
    }
    return {
      exact: exact !== null && exact.length <= MAX_ALTERNATIVES ? [...new Set(exact)] : null,
      required: allRequired && required.length <= MAX_ALTERNATIVES ? [...new Set(required)] : null,
    };
  }

  #concatenation(): Facts {
    // `run` is the exact set of the items since the last inexact one; `candidates` the requirements seen.
    let run: string[] | null = [''];
    let whole: string[] | null = [''];
    const candidates: string[][] = [];
    const flush = (): void => {
      const requirement = run === null ? null : requirementOf({ exact: run, required: null });
      if (requirement) candidates.push(requirement);
    };
    while (!this.done() && this.#peek() !== '|' && this.#peek() !== ')') {
      const item = this.#repeated();
      whole = whole !== null && item.exact !== null ? product(whole, item.exact) : null;
      if (run !== null && item.exact !== null) {
        const joined = product(run, item.exact);
        if (joined !== null) {
          run = joined;
          continue;
        }
      }
      flush();
      const own = requirementOf(item);
      if (own) candidates.push(own);
      run = item.exact ?? [''];
    }
    flush();
    return { exact: whole, required: best(candidates) };
  }

  #repeated(): Facts {
    const atom = this.#atom();
    const next = this.#peek();
    let minimum: number;
    if (next === '*' || next === '?') {
      this.#at++;
      minimum = 0;
    } else if (next === '+') {
      this.#at++;
      minimum = 1;
    } else if (next === '{') {
      minimum = this.#braces();
    } else {
      return atom;
    }
    if (this.#peek() === '?') this.#at++; // lazy
    const after = this.#peek();
    if (after === '*' || after === '+' || after === '?' || after === '{') throw new Unsupported();
    return minimum === 0 ? ANY : { exact: null, required: requirementOf(atom) };
  }

  /** `{n}`, `{n,}` or `{n,m}`; returns n. Anything else is not modelled. */
  #braces(): number {
    let text = '';
    this.#at++;
    while (!this.done() && this.#peek() !== '}') text += this.#chars[this.#at++];
    if (this.#peek() !== '}') throw new Unsupported();
    this.#at++;
    const match = /^(\d{1,4})(,(\d{1,4})?)?$/.exec(text);
    if (!match) throw new Unsupported();
    return Number(match[1]);
  }

  #atom(): Facts {
    const char = this.#chars[this.#at++] as string;
    switch (char) {
      case '(': {
        if (this.#peek() === '?') {
          if (this.#peek(1) !== ':') throw new Unsupported();
          this.#at += 2;
        }
        const inner = this.alternation();
        if (this.#peek() !== ')') throw new Unsupported();
        this.#at++;
        return inner;
      }
      case '[':
        this.#skipClass();
        return ANY;
      case '.':
        return ANY;
      case '^':
      case '$':
        this.asserts = true;
        return EMPTY;
      case '\\':
        return this.#escape();
      case ')':
      case ']':
      case '}':
      case '{':
      case '*':
      case '+':
      case '?':
      case '|':
        throw new Unsupported();
      default:
        return this.#literal(char);
    }
  }

  #escape(): Facts {
    const next = this.#chars[this.#at++];
    if (next === undefined) throw new Unsupported();
    if ('dDwWsS'.includes(next)) return ANY;
    if ('bBAz'.includes(next)) {
      this.asserts = true;
      return EMPTY;
    }
    const controls: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v' };
    if (controls[next] !== undefined) return this.#literal(controls[next]);
    if (/^[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]$/.test(next)) return this.#literal(next);
    throw new Unsupported();
  }

  #literal(char: string): Facts {
    if (this.#ignoreCase && !(char.length === 1 && char < '\x80' && !/[A-Za-z]/.test(char))) return ANY;
    return { exact: [char], required: null };
  }

  /** Moves past a character class (RE2 syntax: a leading `]` is literal, `\` escapes, `[:name:]`). */
  #skipClass(): void {
    if (this.#peek() === '^') this.#at++;
    if (this.#peek() === ']') this.#at++;
    while (!this.done()) {
      const char = this.#chars[this.#at++];
      if (char === ']') return;
      if (char === '\\') {
        const escaped = this.#chars[this.#at++];
        if (escaped === undefined || /[pPQx0-9]/.test(escaped)) throw new Unsupported();
      } else if (char === '[') {
        if (this.#peek() !== ':') throw new Unsupported();
        const close = this.#chars.indexOf(']', this.#at);
        if (close === -1 || this.#chars[close - 1] !== ':') throw new Unsupported();
        this.#at = close + 1;
      }
    }
    throw new Unsupported();
  }
}

/** Every `a + b`, or null when there would be too many or too long. */
function product(left: readonly string[], right: readonly string[]): string[] | null {
  if (left.length * right.length > MAX_ALTERNATIVES) return null;
  const out: string[] = [];
  for (const a of left) {
    for (const b of right) {
      if (a.length + b.length > MAX_EXACT_LENGTH) return null;
      out.push(a + b);
    }
  }
  return [...new Set(out)];
}
