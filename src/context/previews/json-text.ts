import type { JsonValue } from '../../core/json.js';

/** A JSON document read from text, whole or from its start only. */
export interface JsonText {
  value: JsonValue;
  /** `json`: one document; `lines`: one JSON value per line (JSON Lines), read as an array. */
  form: 'json' | 'lines';
  /** True when the whole text was read; otherwise `value` holds what fits in the first `maxChars`. */
  complete: boolean;
  /** The arrays and objects the cut left open (their lengths are lower bounds). */
  cut: ReadonlySet<JsonValue>;
}

/** Options for {@link readJsonText}. */
export interface ReadJsonTextOptions {
  /** Texts up to this many characters are parsed whole; longer ones from their start (default 1 MiB). */
  maxChars?: number;
}

const NONE: ReadonlySet<JsonValue> = new Set();
const MAX_DEPTH = 512;

// The characters JSON allows outside strings: whitespace, punctuation, numbers, and the letters of true/false/null.
const JSON_TOKEN: boolean[] = [];
for (const char of ' \t\r\n{}[],:-+.0123456789eEtruefalsn') JSON_TOKEN[char.charCodeAt(0)] = true;

/**
 * Reads text that looks like JSON (its first non-blank character is `{` or `[`): the whole document when it is
 * short enough and valid; JSON Lines when every line is a JSON object or array; otherwise the longest prefix of the
 * first `maxChars` that closes into valid JSON (a 100 MB array reads as its first items, flagged as cut).
 * Returns `undefined` for text that is not JSON. O(maxChars) whatever the text's length.
 */
export function readJsonText(text: string, options: ReadJsonTextOptions = {}): JsonText | undefined {
  const maxChars = options.maxChars ?? 1024 * 1024;
  const start = firstNonBlank(text);
  const opener = text[start];
  if (opener !== '{' && opener !== '[') return undefined;
  if (text.length <= maxChars) {
    try {
      return { value: JSON.parse(text) as JsonValue, form: 'json', complete: true, cut: NONE };
    } catch {
      const lines = jsonLines(text);
      if (lines) return { value: lines, form: 'lines', complete: true, cut: NONE };
    }
  }
  return jsonPrefix(text.slice(start, start + maxChars), text.length - start > maxChars);
}

function firstNonBlank(text: string): number {
  let index = 0;
  // A byte order mark or leading blank lines come before the document.
  while (index < text.length && index < 4096 && /[\s\uFEFF]/.test(text[index] as string)) index++;
  return index;
}

/** Every non-blank line parsed, when there are at least two and each is an object or an array. */
function jsonLines(text: string): JsonValue[] | undefined {
  const values: JsonValue[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.length === 0) continue;
    if (trimmed[0] !== '{' && trimmed[0] !== '[') return undefined;
    try {
      values.push(JSON.parse(trimmed) as JsonValue);
    } catch {
      return undefined;
    }
  }
  return values.length >= 2 ? values : undefined;
}

/**
 * The longest prefix of `window` that ends at a clean point (just after an opening bracket, just before a comma,
 * just after a closing bracket), closed with the brackets still open there and parsed. `truncated` says the text
 * goes on past the window. A character JSON does not allow outside a string means the text is not JSON.
 */
function jsonPrefix(window: string, truncated: boolean): JsonText | undefined {
  const open: string[] = [];
  let inString = false;
  // After the last clean point no bracket or comma follows (each would be a clean point), so the brackets open there
  // are the ones still open at the end of the window.
  let cleanAt = -1;
  const markClean = (at: number) => {
    cleanAt = at;
  };
  for (let index = 0; index < window.length; index++) {
    const code = window.charCodeAt(index);
    if (inString) {
      if (code === 92) index++;
      else if (code === 34) inString = false;
      continue;
    }
    if (code === 34) inString = true;
    else if (!JSON_TOKEN[code]) return undefined;
    else if (code === 123 || code === 91) {
      // Nesting this deep is not a document worth a shape (and would cost the parser a deep recursion).
      if (open.length === MAX_DEPTH) return undefined;
      open.push(code === 123 ? '}' : ']');
      markClean(index + 1);
    } else if (code === 125 || code === 93) {
      if (open.pop() !== (code === 125 ? '}' : ']')) return undefined;
      markClean(index + 1);
      if (open.length === 0) {
        // One complete document; whatever follows (more documents, a trailer) is not read.
        return parsePrefix(window.slice(0, index + 1), '', truncated || index + 1 < window.trimEnd().length);
      }
    } else if (code === 44) markClean(index);
  }
  if (cleanAt === -1) return undefined;
  return parsePrefix(window.slice(0, cleanAt), open.toReversed().join(''), true);
}

function parsePrefix(prefix: string, closers: string, cut: boolean): JsonText | undefined {
  let value: JsonValue;
  try {
    value = JSON.parse(prefix + closers) as JsonValue;
  } catch {
    return undefined;
  }
  // The containers left open are the last child at each open depth, from the root down.
  const open = new Set<JsonValue>();
  let node: JsonValue | undefined = value;
  for (let depth = 0; depth < closers.length && node !== undefined; depth++) {
    open.add(node);
    node = lastChild(node);
  }
  return { value, form: 'json', complete: !cut, cut: open };
}

function lastChild(value: JsonValue): JsonValue | undefined {
  if (Array.isArray(value)) return value[value.length - 1];
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    const last = keys[keys.length - 1];
    return last === undefined ? undefined : value[last];
  }
  return undefined;
}
