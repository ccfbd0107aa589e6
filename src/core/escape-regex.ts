/**
 * `text` with every regular-expression metacharacter escaped, so it matches itself literally. The result is valid
 * both as a JavaScript `RegExp` (with or without the `u` flag) and as an RE2 pattern.
 */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
