/** A place in a JSON value: object keys and array indexes from the root. */
export type JsonPath = ReadonlyArray<string | number>;

/** `path` as a JSON Pointer (RFC 6901): `/items/3/name`, `~` and `/` in keys escaped as `~0` and `~1`. */
export function jsonPointer(path: JsonPath): string {
  return path.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
