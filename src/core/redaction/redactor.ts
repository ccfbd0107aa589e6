import { ScratchpadError } from '../errors.js';
import { LinearRegex } from '../linear-regex.js';
import { type KeepSlot, mapJsonStrings } from './map-json-strings.js';
import { BUILTIN_SECRET_PATTERNS, type SecretPattern } from './secret-patterns.js';
import {
  type CompiledSecretPattern,
  redactNextWindow,
  type SecretPatternSet,
  WINDOW,
} from './secret-window.js';
import { BUILTIN_WITNESSES, createWitnessScan } from './secret-witnesses.js';

export { redactionMarker } from './secret-window.js';

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
 * Replaces high-confidence secrets with `[REDACTED:<kind>]`. Linear in the input (one pass finds which patterns' witnesses occur, see
 * {@link createWitnessScan}, and only those patterns run, on RE2's automata, {@link LinearRegex});
 * the output grows by at most one marker per secret of at least three characters. Long text is redacted in
 * windows cut only where no match of any pattern crosses (see {@link redactNextWindow}); text whose matches run
 * on past 1 MiB without such a cut is refused (`CONTENT_TOO_LARGE`) rather than shown in part.
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
  /**
   * A copy of a JSON-like value with every string redacted (keys too), at any depth; slots that `keep` names
   * (base64 payloads) and values other than strings, plain objects and arrays are returned as they are.
   */
  redactValue<Value>(value: Value, keep?: KeepSlot): Promise<Value>;
}

let builtins: readonly CompiledSecretPattern[] | undefined;

/** The built-in patterns, compiled at the first call in this process. */
function builtinPatterns(): readonly CompiledSecretPattern[] {
  // The built-in token and field patterns see a JSON escape (`\n`, `\r`, `\t`) as the break it stands for (so a
  // token right after an escaped line end in JSON text is still at a word boundary); the PEM patterns read the
  // escapes themselves.
  if (BUILTIN_WITNESSES.length !== BUILTIN_SECRET_PATTERNS.length)
    throw new Error('Every built-in secret pattern needs its witness (secret-witnesses.ts).');
  builtins ??= BUILTIN_SECRET_PATTERNS.map((source) => ({
    ...compileSecretPattern(source),
    escapesAsBreaks: source.kind !== 'private-key',
  }));
  return builtins;
}

const KIND = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** Strings up to this length have their redaction remembered, up to this many of them. */
const REMEMBERED_LENGTH = 64;
const REMEMBERED_COUNT = 4096;
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
  let patterns: SecretPatternSet | undefined;
  const compiled = (): SecretPatternSet => {
    if (patterns === undefined) {
      const list = withBuiltins ? [...builtinPatterns(), ...extra] : extra;
      // A caller's pattern has no witness, so it runs on every window.
      const witnesses = withBuiltins
        ? [...BUILTIN_WITNESSES, ...extra.map(() => undefined)]
        : extra.map(() => undefined);
      patterns = { patterns: list, mayMatch: createWitnessScan(witnesses) };
    }
    return patterns;
  };
  const scan = (text: string): RedactionResult => {
    const counts: Record<string, number> = {};
    if (typeof text !== 'string' || text.length === 0 || compiled().patterns.length === 0)
      return { text: typeof text === 'string' ? text : String(text), counts };
    let out = '';
    for (let start = 0; start < text.length; ) {
      const window = redactNextWindow(text, start, compiled(), counts);
      out += window.text;
      start = window.end;
    }
    return { text: out, counts };
  };
  // Short strings recur (JSON keys, names, enum values): their redactions are remembered, a bounded number.
  const remembered = new Map<string, string>();
  const redactSync = (text: string): string => {
    if (typeof text !== 'string' || text.length > REMEMBERED_LENGTH) return scan(text).text;
    let out = remembered.get(text);
    if (out === undefined) {
      out = scan(text).text;
      if (remembered.size >= REMEMBERED_COUNT) remembered.clear();
      remembered.set(text, out);
    }
    return out;
  };
  const redact = async (text: string): Promise<string> => {
    if (!enabled || typeof text !== 'string' || text.length <= WINDOW) return redactSync(text);
    const counts: Record<string, number> = {};
    let out = '';
    let slice = performance.now();
    for (let start = 0; start < text.length; ) {
      const window = redactNextWindow(text, start, compiled(), counts);
      out += window.text;
      start = window.end;
      if (start < text.length && performance.now() - slice > SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    return out;
  };
  const redactValue = async <Value>(value: Value, keep?: KeepSlot): Promise<Value> =>
    enabled ? ((await mapJsonStrings(value, redact, keep)) as Value) : value;
  return { enabled, redact, redactSync, scan, redactValue };
}

/** A redactor that changes nothing. */
export const NO_REDACTION: Redactor = createRedactor({ enabled: false });

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
  return { kind: source.kind, regex, groups: regex.groupCount, escapesAsBreaks: false };
}
