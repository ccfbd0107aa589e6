/**
 * What every match of a secret pattern must contain, checked for all patterns in one pass over a text: a
 * pattern whose witness is nowhere in a window cannot match there, so only the few patterns whose witness was
 * seen run their RE2 scan (most windows of ordinary text have none and are passed through after this one pass).
 */
export interface SecretWitness {
  /** Texts, compared exactly, one of which every match contains (ASCII, at least two characters each). */
  literals?: readonly string[];
  /**
   * Names, compared as RE2's `(?i)` compares them (so the Kelvin sign is a `k` and `ſ` an `s`), one of which every
   * match has just before a `:` or `=`, with at most a quote or `]` and blanks between.
   */
  namesBeforeSeparator?: readonly string[];
  /** Every match is `scheme://host:password@`: an `@` whose run back to a blank, `/`, `?`, `#`, `@`, quote, `<` or `>` starts after `://`. */
  urlUserinfo?: true;
}

/** Which patterns may match in a text: entry `i` is 1 when pattern `i`'s witness occurs (or it has none). */
export type WitnessScan = (text: string) => Uint8Array;

const SECRET_NAMES = ['key', 'token', 'secret', 'password', 'passwd', 'pwd'];
const AWS_PREFIXES = [
  'AKIA',
  'ASIA',
  'ABIA',
  'ACCA',
  'AGPA',
  'AIDA',
  'AIPA',
  'ANPA',
  'ANVA',
  'AROA',
  'APKA',
  'ASCA',
];

/** The witness of each built-in pattern, in the order of `BUILTIN_SECRET_PATTERNS` (checked where both are used). */
export const BUILTIN_WITNESSES: readonly SecretWitness[] = [
  { literals: ['-----BEGIN'] },
  { literals: ['-----BEGIN'] },
  { literals: ['-----END'] },
  { literals: ['sk-ant-'] },
  { literals: ['sk-proj-', 'sk-svcacct-', 'sk-admin-'] },
  { literals: ['T3BlbkFJ'] },
  { literals: ['sk-'] },
  { literals: AWS_PREFIXES },
  // aws_secret_access_key and its variants end in "key", before an optional quote, blanks and `:` or `=`.
  { namesBeforeSeparator: ['key'] },
  { literals: ['AIza'] },
  { literals: ['GOCSPX-'] },
  { literals: ['"private_key_id"'] },
  { literals: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'] },
  { literals: ['github_pat_'] },
  { literals: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glsoat-', 'glft-', 'glimt-', 'glcbt-', 'gloas-'] },
  { literals: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-'] },
  { literals: ['xapp-'] },
  { literals: ['https://hooks.slack.com/'] },
  { literals: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'] },
  { literals: ['whsec_'] },
  { literals: ['npm_'] },
  { literals: ['hf_'] },
  { literals: ['SG.'] },
  { literals: ['.eyJ'] },
  { namesBeforeSeparator: ['authorization'] },
  // x-api-key, api-key, x-goog-api-key end in "key"; x-auth-token, private-token, x-access-token in "token".
  { namesBeforeSeparator: ['key', 'token'] },
  { literals: ['Bearer ', 'Bearer\t', 'bearer ', 'bearer\t'] },
  { urlUserinfo: true },
  { namesBeforeSeparator: SECRET_NAMES },
  { namesBeforeSeparator: SECRET_NAMES },
  { namesBeforeSeparator: SECRET_NAMES },
  // The field names end in password, passwd, secret, key or token.
  { namesBeforeSeparator: ['password', 'passwd', 'secret', 'key', 'token'] },
];

const LITERAL_TRIGGER = 1;
const SEPARATOR_TRIGGER = 2;
const AT_TRIGGER = 4;

interface LiteralEntry {
  literal: string;
  /** Where in the literal the two characters looked up are (this one and the one before). */
  offset: number;
  pattern: number;
}

interface NameEntry {
  /** Lowercase. */
  name: string;
  patterns: number[];
}

/**
 * One pass over `text` per call, whatever the number of patterns: each literal is looked up by two of its
 * characters (chosen to be uncommon in prose, logs and JSON), each name by the `:` or `=` after it, the URL
 * userinfo by its `@`. Patterns without a witness (a caller's) are always marked.
 */
export function createWitnessScan(witnesses: readonly (SecretWitness | undefined)[]): WitnessScan {
  const triggers = new Uint8Array(128);
  const byPair: (LiteralEntry[] | undefined)[] = new Array(128 * 128);
  const names: NameEntry[] = [];
  const userinfoPatterns: number[] = [];
  const always: number[] = [];
  witnesses.forEach((witness, pattern) => {
    if (witness === undefined) {
      always.push(pattern);
      return;
    }
    for (const literal of witness.literals ?? []) {
      const offset = pairOffset(literal);
      const key = literal.charCodeAt(offset - 1) * 128 + literal.charCodeAt(offset);
      const entries = byPair[key] ?? [];
      entries.push({ literal, offset, pattern });
      byPair[key] = entries;
      addTrigger(triggers, literal.charCodeAt(offset), LITERAL_TRIGGER);
    }
    for (const name of witness.namesBeforeSeparator ?? []) {
      const entry = names.find((known) => known.name === name) ?? { name, patterns: [] };
      if (!names.includes(entry)) names.push(entry);
      entry.patterns.push(pattern);
    }
    if (witness.urlUserinfo) userinfoPatterns.push(pattern);
  });
  if (names.length > 0) {
    addTrigger(triggers, 0x3a, SEPARATOR_TRIGGER);
    addTrigger(triggers, 0x3d, SEPARATOR_TRIGGER);
  }
  if (userinfoPatterns.length > 0) addTrigger(triggers, 0x40, AT_TRIGGER);
  const lastLetters = new Uint8Array(128);
  for (const { name } of names) lastLetters[name.charCodeAt(name.length - 1)] = 1;
  const count = witnesses.length;

  return (text) => {
    const marked = new Uint8Array(count);
    for (const pattern of always) marked[pattern] = 1;
    const length = text.length;
    for (let index = 0; index < length; index++) {
      const code = text.charCodeAt(index);
      if (code >= 128) continue;
      const trigger = triggers[code] as number;
      if (trigger === 0) continue;
      if ((trigger & LITERAL_TRIGGER) !== 0 && index > 0) {
        const previous = text.charCodeAt(index - 1);
        const entries = previous < 128 ? byPair[previous * 128 + code] : undefined;
        if (entries !== undefined) {
          for (const { literal, offset, pattern } of entries) {
            if (marked[pattern] === 0 && index >= offset && text.startsWith(literal, index - offset))
              marked[pattern] = 1;
          }
        }
      }
      if ((trigger & SEPARATOR_TRIGGER) !== 0) markNameBefore(text, index, names, lastLetters, marked);
      if ((trigger & AT_TRIGGER) !== 0 && followsScheme(text, index)) {
        for (const pattern of userinfoPatterns) marked[pattern] = 1;
      }
    }
    return marked;
  };
}

function addTrigger(triggers: Uint8Array, code: number, trigger: number): void {
  triggers[code] = (triggers[code] ?? 0) | trigger;
}

/**
 * The index of the second of the two characters a literal is looked up by: its first `_`, `.` or `-` after the
 * start, else its first capital or digit after the start, else its last character.
 */
function pairOffset(literal: string): number {
  if (literal.length < 2 || !/^[\x20-\x7e\t]+$/.test(literal))
    throw new Error(
      `A witness literal must be two or more ASCII characters (got ${JSON.stringify(literal)}).`,
    );
  const rest = literal.slice(1);
  for (const pattern of [/[_.-]/, /[A-Z0-9]/]) {
    const found = rest.search(pattern);
    if (found >= 0) return found + 1;
  }
  return literal.length - 1;
}

/** Marks the patterns of the name that ends just before the separator at `index` (past blanks and a quote or `]`). */
function markNameBefore(
  text: string,
  index: number,
  names: readonly NameEntry[],
  lastLetters: Uint8Array,
  marked: Uint8Array,
): void {
  let end = index;
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
  if (end > 0) {
    const before = text.charCodeAt(end - 1);
    if (before === 0x22 || before === 0x27 || before === 0x5d) end--;
  }
  if (end === 0) return;
  const last = foldCase(text.charCodeAt(end - 1));
  if (last >= 128 || lastLetters[last] === 0) return;
  for (const { name, patterns } of names) {
    if (name.length > end || name.charCodeAt(name.length - 1) !== last) continue;
    let same = true;
    for (let at = name.length - 2, position = end - 2; at >= 0; at--, position--) {
      if (foldCase(text.charCodeAt(position)) !== name.charCodeAt(at)) {
        same = false;
        break;
      }
    }
    if (same) for (const pattern of patterns) marked[pattern] = 1;
  }
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** A letter as RE2's case folding sees it, lowercase ASCII where it folds to one (K and ſ included). */
function foldCase(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code + 0x20;
  if (code === 0x212a) return 0x6b;
  if (code === 0x17f) return 0x73;
  return code;
}

/** Whether the run before the `@` at `index`, back to a character a URL's userinfo cannot hold, follows `://`. */
function followsScheme(text: string, index: number): boolean {
  let position = index - 1;
  while (position >= 0 && !endsUserinfo(text.charCodeAt(position))) position--;
  return position >= 2 && text.startsWith('://', position - 2);
}

/** RE2's `\s` (ASCII blanks) and the characters the url-credentials pattern stops at. */
function endsUserinfo(code: number): boolean {
  switch (code) {
    case 0x09:
    case 0x0a:
    case 0x0c:
    case 0x0d:
    case 0x20:
    case 0x2f:
    case 0x3f:
    case 0x23:
    case 0x40:
    case 0x22:
    case 0x27:
    case 0x3c:
    case 0x3e:
      return true;
    default:
      return false;
  }
}
