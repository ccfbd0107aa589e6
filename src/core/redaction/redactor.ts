import { ScratchpadError } from '../errors.js';
import { LinearRegex } from '../linear-regex.js';
import { BUILTIN_SECRET_PATTERNS, isPlaceholder, type SecretPattern } from './secret-patterns.js';

/** Options for {@link createRedactor}. */
export interface RedactorOptions {
  /** `false` turns redaction off (the redactor returns its input). Default `true`. */
  enabled?: boolean;
  /** Patterns to run after the built-in ones (same RE2 syntax and group convention as {@link SecretPattern}). */
  patterns?: readonly SecretPattern[];
  /** `false` drops the built-in patterns, so only `patterns` run. Default `true`. */
  builtins?: boolean;
}

/** What {@link Redactor.scan} found: the text with each secret replaced, and how many of each kind. */
export interface RedactionResult {
  text: string;
  /** Secrets replaced, by kind (empty when none). */
  counts: Record<string, number>;
}

/**
 * Replaces high-confidence secrets with `[REDACTED:<kind>]`. Linear in the input (every pattern runs on RE2's automata, {@link LinearRegex});
 * never throws on any string; the output grows by at most one marker per secret of at least three characters.
 */
export interface Redactor {
  readonly enabled: boolean;
  /**
   * `text` with its secrets replaced, giving the event loop back every few milliseconds, so a large result does
   * not stall the process.
   */
  redact(text: string): Promise<string>;
  /** {@link redact} in one synchronous pass: for short text (a preview, a message; about 1 ms per 10 KB). */
  redactSync(text: string): string;
  /** Like {@link redactSync}, with the counts by kind. */
  scan(text: string): RedactionResult;
  /** A copy of a JSON-like value with every string redacted (keys too); other values are returned as they are. */
  redactValue<Value>(value: Value): Promise<Value>;
}

/** The marker that replaces a secret of `kind`. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

interface CompiledSecretPattern {
  kind: string;
  regex: LinearRegex;
  /** Capture groups: 0 = the whole match is the secret; else group 2 is, between kept groups 1 and 3. */
  groups: number;
}

let builtins: readonly CompiledSecretPattern[] | undefined;

/** The built-in patterns, compiled at the first call in this process. */
function builtinPatterns(): readonly CompiledSecretPattern[] {
  builtins ??= BUILTIN_SECRET_PATTERNS.map(compileSecretPattern);
  return builtins;
}

const KIND = /^[a-z0-9][a-z0-9-]{0,39}$/;
const MAX_DEPTH = 64;
/** Characters redacted in one piece (a few milliseconds of work). */
const WINDOW = 64 * 1024;
/** Milliseconds of redaction between two turns of the event loop in {@link Redactor.redact}. */
const SLICE_MS = 8;

/**
 * Creates a redactor. The built-in patterns catch PEM private keys (whole or cut by a slice), AWS, GCP, GitHub,
 * GitLab, Slack, Stripe, OpenAI, Anthropic, npm, Hugging Face and SendGrid credentials, JWTs, `Authorization`
 * and API-key headers, bare bearer tokens, passwords in URLs, `.env`-style `*_KEY=`/`*_TOKEN=`/`*_SECRET=`/
 * `PASSWORD=` lines and JSON fields named like secrets. Hashes, UUIDs, git SHAs, ids and base64 data survive.
 *
 * @throws ScratchpadError `INVALID_ARGUMENT` for an extra pattern RE2 cannot compile or a malformed kind.
 */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const enabled = options.enabled !== false;
  // A caller's patterns compile now (a bad one is an error at creation); the built-in ones once per process, at
  // the first redaction (a CLI read that redacts nothing does not pay for 32 compilations).
  const extra = enabled ? (options.patterns ?? []).map(compileSecretPattern) : [];
  const withBuiltins = enabled && options.builtins !== false;
  let patterns: readonly CompiledSecretPattern[] | undefined;
  const compiled = (): readonly CompiledSecretPattern[] =>
    (patterns ??= withBuiltins ? [...builtinPatterns(), ...extra] : extra);
  const redactWindow = (window: string, counts: Record<string, number>): string =>
    aroundLoneSurrogates(window, (part) => {
      let current = part;
      for (const pattern of compiled()) current = replaceSecrets(current, pattern, counts);
      return current;
    });
  const scan = (text: string): RedactionResult => {
    const counts: Record<string, number> = {};
    if (typeof text !== 'string' || text.length === 0 || compiled().length === 0)
      return { text: typeof text === 'string' ? text : String(text), counts };
    let out = '';
    for (let start = 0; start < text.length; ) {
      const end = windowEnd(text, start);
      out += redactWindow(text.slice(start, end), counts);
      start = end;
    }
    return { text: out, counts };
  };
  const redactSync = (text: string) => scan(text).text;
  const redact = async (text: string): Promise<string> => {
    if (!enabled || typeof text !== 'string' || text.length <= WINDOW) return redactSync(text);
    const counts: Record<string, number> = {};
    let out = '';
    let slice = performance.now();
    for (let start = 0; start < text.length; ) {
      const end = windowEnd(text, start);
      out += redactWindow(text.slice(start, end), counts);
      start = end;
      if (start < text.length && performance.now() - slice > SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    return out;
  };
  const redactValue = async <Value>(value: Value): Promise<Value> =>
    enabled ? ((await mapStrings(value, redact, 0)) as Value) : value;
  return { enabled, redact, redactSync, scan, redactValue };
}

/** A redactor that changes nothing. */
export const NO_REDACTION: Redactor = createRedactor({ enabled: false });

/** Replaces the pattern's secrets, left to right. */
function replaceSecrets(
  text: string,
  pattern: CompiledSecretPattern,
  counts: Record<string, number>,
): string {
  let out = '';
  let cursor = 0;
  for (const { start, end } of pattern.regex.matches(text)) {
    if (end === start) continue;
    const replacement = replacementFor(pattern, text, start);
    out += text.slice(cursor, start) + (replacement ?? text.slice(start, end));
    cursor = end;
    if (replacement !== undefined) counts[pattern.kind] = (counts[pattern.kind] ?? 0) + 1;
  }
  return cursor === 0 ? text : out + text.slice(cursor);
}

/** The marker for the match at `start`, with its kept groups; `undefined` when the secret is a placeholder. */
function replacementFor(pattern: CompiledSecretPattern, text: string, start: number): string | undefined {
  if (pattern.groups < 2) return redactionMarker(pattern.kind);
  const match = pattern.regex.exec(text, start);
  if (match === undefined) return redactionMarker(pattern.kind);
  const [, before, secret, after] = match.groups;
  if (secret === undefined || secret.length === 0 || isPlaceholder(secret)) return undefined;
  return `${before ?? ''}${redactionMarker(pattern.kind)}${pattern.groups >= 3 ? (after ?? '') : ''}`;
}

/**
 * Runs `redact` on the well-formed stretches of `text`, keeping lone surrogates where they are: RE2 works on code
 * points, and a secret never contains one.
 */
function aroundLoneSurrogates(text: string, redact: (part: string) => string): string {
  if ((text as string & { isWellFormed(): boolean }).isWellFormed()) return redact(text);
  let out = '';
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(index + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      index++;
      continue;
    }
    out += redact(text.slice(start, index)) + text[index];
    start = index + 1;
  }
  return out + redact(text.slice(start));
}

function compileSecretPattern(source: SecretPattern): CompiledSecretPattern {
  if (typeof source?.kind !== 'string' || !KIND.test(source.kind)) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `A redaction pattern's kind must be lowercase letters, digits and "-" (got ${JSON.stringify(source?.kind)}).`,
      {
        hint: 'Name the kind the marker shows, e.g. { kind: "internal-token", pattern: "itk_[a-z0-9]{32}" }.',
      },
    );
  }
  let regex: LinearRegex;
  try {
    regex = LinearRegex.compile(source.pattern, {
      ignoreCase: source.ignoreCase === true,
      multiline: source.multiline === true,
    });
  } catch (error) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `The redaction pattern for "${source.kind}" does not compile in RE2: ${error instanceof Error ? error.message : String(error)}`,
      {
        hint: 'Patterns use RE2 syntax: no lookaround or backreferences.',
        details: { kind: source.kind, pattern: source.pattern },
        cause: error,
      },
    );
  }
  return { kind: source.kind, regex, groups: regex.groupCount };
}

/**
 * Where the window that starts at `start` ends: after its last line end (else after its last blank, comma or
 * quote, which no secret contains; else at its length), moved back to the start of a line that opens a PEM block
 * the window would not close. Secrets other than PEM blocks fit on a line, so none is cut.
 */
function windowEnd(text: string, start: number): number {
  if (start + WINDOW >= text.length) return text.length;
  // Every search runs inside the window, so finding the end costs the window, not the text before it.
  const window = text.slice(start, start + WINDOW);
  const floor = WINDOW / 4;
  let end = window.lastIndexOf('\n') + 1;
  if (end <= floor) end = Math.max(...[' ', ',', '"', '\t'].map((stop) => window.lastIndexOf(stop))) + 1;
  if (end <= floor) {
    end = WINDOW;
    const code = window.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
  }
  const begin = window.lastIndexOf('-----BEGIN', end - 1);
  if (begin > 0 && begin > window.lastIndexOf('-----END', end - 1)) {
    const lineStart = window.lastIndexOf('\n', begin) + 1;
    if (lineStart > 0) end = lineStart;
  }
  return start + end;
}

async function mapStrings(
  value: unknown,
  map: (text: string) => Promise<string>,
  depth: number,
): Promise<unknown> {
  if (typeof value === 'string') return map(value);
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) out.push(await mapStrings(item, map, depth + 1));
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[await map(key)] = await mapStrings(item, map, depth + 1);
  return out;
}
