/**
 * `text` with every regular-expression metacharacter escaped, so it matches itself literally. The result is valid
 * both as a JavaScript `RegExp` (with or without the `u` flag) and as an RE2 pattern.
 */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/**
 * The literals of a pattern that is an alternation of {@link escapeRegex} outputs (`a\.b|c`), or undefined when the
 * pattern is anything else (a class, a quantifier, an unescaped metacharacter).
 */
export function escapedLiterals(pattern: string): string[] | undefined {
  const literals: string[] = [];
  let current = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next === undefined || !ESCAPED.includes(next)) return undefined;
      current += next;
      index++;
    } else if (char === '|') {
      literals.push(current);
      current = '';
    } else if (ESCAPED.includes(char)) {
      return undefined;
    } else current += char;
  }
  literals.push(current);
  return literals;
}

/** The characters {@link escapeRegex} escapes. */
const ESCAPED = '\\^$.|?*+()[]{}';
