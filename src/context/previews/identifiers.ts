/**
 * Identifiers as the salient preview counts them: a letter or `_`, then 7 or more of `[A-Za-z0-9_.]` (names,
 * dotted paths, file names), with trailing dots (sentence ends) removed. The letter of an escape (`\n` in JSON
 * text) is not part of the name after it: `"a\nghp_…"` holds `ghp_…`, not `nghp_…` (which no secret pattern would
 * know as a token).
 */
export const IDENTIFIER_PATTERN = /(?<!\\)[A-Za-z_][A-Za-z0-9_.]{7,}/g;

/** Shortest identifier counted, in characters. */
export const MIN_IDENTIFIER_LENGTH = 8;

// A dotted path longer than this is not split into all its sub-paths (the count grows with the square).
const MAX_SEGMENTS = 12;

/** Every identifier in `text`, in order, repeats included. */
export function identifiersIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(IDENTIFIER_PATTERN)) {
    const identifier = stripTrailingDots(match[0]);
    if (identifier.length >= MIN_IDENTIFIER_LENGTH) found.push(identifier);
  }
  return found;
}

/**
 * Adds to `into` every identifier a reader of `text` has seen: each identifier and each of its dotted sub-paths
 * (`self.field.disabled` shows `self.field` and `field.disabled` too).
 */
export function addSeenIdentifiers(text: string, into: Set<string>): Set<string> {
  for (const match of text.matchAll(IDENTIFIER_PATTERN)) addForms(stripTrailingDots(match[0]), into);
  return into;
}

/** The sub-paths of one dotted identifier that are identifiers themselves (itself included). */
export function identifierForms(identifier: string): Set<string> {
  return addForms(identifier, new Set());
}

function addForms(identifier: string, into: Set<string>): Set<string> {
  if (identifier.length < MIN_IDENTIFIER_LENGTH) return into;
  into.add(identifier);
  const parts = identifier.split('.');
  if (parts.length === 1 || parts.length > MAX_SEGMENTS) return into;
  for (let start = 0; start < parts.length; start++) {
    let form = '';
    for (let end = start; end < parts.length; end++) {
      form = end === start ? (parts[end] as string) : `${form}.${parts[end]}`;
      if (form.length >= MIN_IDENTIFIER_LENGTH && /^[A-Za-z_]/.test(form)) into.add(form);
    }
  }
  return into;
}

function stripTrailingDots(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 46) end--;
  return end === text.length ? text : text.slice(0, end);
}
