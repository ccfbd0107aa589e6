/**
 * A copy of `value` with every string longer than `maxChars` cut, saying how much was cut, at any depth. Keeps a
 * log line or a prompt small when a value may hold megabytes (a resolved reference, a hostile argument).
 */
export function clipStrings(value: unknown, maxChars: number): unknown {
  if (typeof value === 'string')
    return value.length > maxChars
      ? `${value.slice(0, maxChars)}… [${value.length - maxChars} more chars]`
      : value;
  if (Array.isArray(value)) return value.map((item) => clipStrings(item, maxChars));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clipStrings(item, maxChars)]));
  }
  return value;
}
