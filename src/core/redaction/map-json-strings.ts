/** Which slots a {@link mapJsonStrings} walk leaves as they are (e.g. base64 payloads). */
export type KeepSlot = (holder: Readonly<Record<string, unknown>>, key: string) => boolean;

/** Milliseconds of walking between two turns of the event loop. */
const SLICE_MS = 8;

/**
 * A copy of a JSON-like value with `map` applied to every string in it, keys included, at any depth: the walk
 * keeps its own stack (no recursion), so no nesting is too deep to reach. Slots that `keep` names are copied as
 * they are; values other than strings, plain objects and arrays (numbers, `Date`s, buffers) are returned as
 * they are; a value met twice (a cycle) is copied once. Gives the event loop back every few milliseconds.
 */
export async function mapJsonStrings(
  value: unknown,
  map: (text: string) => Promise<string>,
  keep?: KeepSlot,
): Promise<unknown> {
  if (typeof value === 'string') return map(value);
  if (!isContainer(value)) return value;
  const copies = new Map<object, unknown[] | Record<string, unknown>>();
  const pending: Array<[object, unknown[] | Record<string, unknown>]> = [];
  const copyOf = (item: unknown): unknown => {
    if (!isContainer(item)) return item;
    let copy = copies.get(item);
    if (copy === undefined) {
      copy = Array.isArray(item) ? [] : {};
      copies.set(item, copy);
      pending.push([item, copy]);
    }
    return copy;
  };
  const root = copyOf(value);
  let slice = performance.now();
  while (pending.length > 0) {
    const [source, target] = pending.pop() as [object, unknown[] | Record<string, unknown>];
    if (Array.isArray(source)) {
      const list = target as unknown[];
      for (const item of source) list.push(typeof item === 'string' ? await map(item) : copyOf(item));
    } else {
      const record = target as Record<string, unknown>;
      const holder = source as Record<string, unknown>;
      for (const [key, item] of Object.entries(holder)) {
        if (keep?.(holder, key)) {
          Object.defineProperty(record, key, {
            value: item,
            enumerable: true,
            writable: true,
            configurable: true,
          });
          continue;
        }
        // defineProperty: a "__proto__" key (JSON.parse makes it an own property) stays a property.
        Object.defineProperty(record, await map(key), {
          value: typeof item === 'string' ? await map(item) : copyOf(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    if (performance.now() - slice > SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  return root;
}

/** Arrays and plain objects: what JSON parses to. */
function isContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
