import type { JsonValue } from '../../core/json.js';

/** What was seen at one position of a JSON document (a key path, with array items merged). */
export interface JsonField {
  /** Values seen here. */
  seen: number;
  /** Values per type: `string`, `number`, `boolean`, `null`, `object`, `array`. */
  types: Map<string, number>;
  /** The first scalar seen (not null). */
  example?: JsonValue;
  /** Counts per string value, or `null` once there were too many distinct values to be a category. */
  strings: Map<string, number> | null;
  /** Counts per boolean value. */
  booleans: { true: number; false: number };
  min?: number;
  max?: number;
  /** Shortest and longest array seen, and whether one was cut (its length is then a lower bound). */
  arrays?: { min: number; max: number; cut: boolean };
  /** Object keys in the order first seen; `keyCount` goes on counting past the listed ones. */
  children: Map<string, JsonField>;
  /** Objects seen here, and the most keys one of them had. */
  objects: number;
  keyCount: number;
  /** Array items, merged. */
  items?: JsonField;
  /**
   * True when only part of the values at this position were read (an array above it is longer than the items read,
   * or was cut): its counts are lower bounds.
   */
  partial: boolean;
}

/** Options for {@link describeJson}. */
export interface DescribeJsonOptions {
  /** Items read per array (default 1,000); longer arrays are counted whole but described from these. */
  sampleItems?: number;
  /** Keys listed per object position (default 200); past it an object reads as a map of that many keys. */
  maxKeys?: number;
  /** Distinct strings kept per position to find categories (default 24). */
  maxCategories?: number;
  /** Nesting levels read (default 12). */
  maxDepth?: number;
}

/**
 * Walks a JSON value once and records, per key path, its types, an example, string categories, number ranges,
 * array lengths and keys. Bounded: at most `sampleItems` items per array and `maxKeys` keys per position are read.
 * `cut` holds the containers a truncated read left open (their lengths are lower bounds).
 */
export function describeJson(
  value: JsonValue,
  cut: ReadonlySet<JsonValue> = new Set(),
  options: DescribeJsonOptions = {},
): JsonField {
  const settings = {
    sampleItems: options.sampleItems ?? 1000,
    maxKeys: options.maxKeys ?? 200,
    maxCategories: options.maxCategories ?? 24,
    maxDepth: options.maxDepth ?? 12,
  };
  const root = emptyField();
  const visit = (field: JsonField, node: JsonValue, depth: number, partial: boolean) => {
    field.seen++;
    if (partial) field.partial = true;
    const type = typeOf(node);
    field.types.set(type, (field.types.get(type) ?? 0) + 1);
    if (node === null) return;
    if (Array.isArray(node)) {
      const open = cut.has(node);
      field.arrays = field.arrays
        ? {
            min: Math.min(field.arrays.min, node.length),
            max: Math.max(field.arrays.max, node.length),
            cut: field.arrays.cut || open,
          }
        : { min: node.length, max: node.length, cut: open };
      if (depth >= settings.maxDepth) return;
      field.items ??= emptyField();
      const items = field.items;
      const partItems = partial || open || node.length > settings.sampleItems;
      node.slice(0, settings.sampleItems).forEach((item) => {
        visit(items, item, depth + 1, partItems);
      });
      return;
    }
    if (typeof node === 'object') {
      field.objects++;
      const keys = Object.keys(node);
      field.keyCount = Math.max(field.keyCount, keys.length);
      if (depth >= settings.maxDepth) return;
      for (const key of keys) {
        let child = field.children.get(key);
        if (!child) {
          if (field.children.size >= settings.maxKeys) continue;
          child = emptyField();
          field.children.set(key, child);
        }
        visit(child, node[key] as JsonValue, depth + 1, partial);
      }
      return;
    }
    field.example ??= node;
    if (typeof node === 'string') {
      if (field.strings) {
        field.strings.set(node, (field.strings.get(node) ?? 0) + 1);
        if (field.strings.size > settings.maxCategories) field.strings = null;
      }
    } else if (typeof node === 'number') {
      field.min = field.min === undefined ? node : Math.min(field.min, node);
      field.max = field.max === undefined ? node : Math.max(field.max, node);
    } else {
      field.booleans[node ? 'true' : 'false']++;
    }
  };
  visit(root, value, 0, false);
  return root;
}

/** The JSON type name of a value (`array` and `null` apart from `object`). */
function typeOf(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * The values of a category that stand out: a string (or boolean) seen at most once in 100 and at most twice at a
 * position with at most a dozen distinct values over 20 or more values, where another value is common. (`"Sex":
 * "."` among 333 MALE and FEMALE.)
 */
export function rareValues(field: JsonField): JsonValue[] {
  if (field.seen < 20) return [];
  const counts: Array<[JsonValue, number]> = [];
  if (field.strings && field.strings.size <= 12) counts.push(...field.strings);
  if (field.booleans.true + field.booleans.false > 0) {
    counts.push([true, field.booleans.true], [false, field.booleans.false]);
  }
  const common = Math.max(0, ...counts.map(([, count]) => count));
  return counts
    .filter(([, count]) => count > 0 && count <= 2 && count <= field.seen / 100 && common >= 10)
    .map(([value]) => value);
}

function emptyField(): JsonField {
  return {
    seen: 0,
    types: new Map(),
    strings: new Map(),
    booleans: { true: 0, false: 0 },
    children: new Map(),
    objects: 0,
    keyCount: 0,
    partial: false,
  };
}
