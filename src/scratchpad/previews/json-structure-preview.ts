import type { JsonValue } from '../../core/json.js';

/** Options for {@link jsonStructurePreview}. */
export interface JsonStructurePreviewOptions {
  /** Nesting levels described (default 6). */
  maxDepth?: number;
  /** Keys listed per object (default 25); the rest are counted. */
  maxKeys?: number;
  /** Lines in the whole preview (default 60). */
  maxLines?: number;
  /** Array items sampled to describe the items' shape (default 100). */
  sampleItems?: number;
  /** Characters of a string kept as its example (default 40). */
  exampleChars?: number;
}

type Settings = Required<JsonStructurePreviewOptions>;

/**
 * The shape of a JSON value: keys, types, array lengths, and one short example per scalar field. Array items are
 * merged into one shape (keys that only some items have are marked `?` with their count), so a 10,000-row result
 * reads as a short schema:
 *
 * ```
 * object, 2 keys
 *   users: array[120] of object
 *     id: number (1)
 *     email?: string ("ana@example.com") in 97 of 120
 *   next: null
 * ```
 */
export function jsonStructurePreview(value: JsonValue, options: JsonStructurePreviewOptions = {}): string {
  const settings: Settings = {
    maxDepth: options.maxDepth ?? 6,
    maxKeys: options.maxKeys ?? 25,
    maxLines: options.maxLines ?? 60,
    sampleItems: options.sampleItems ?? 100,
    exampleChars: options.exampleChars ?? 40,
  };
  const lines: string[] = [];
  lines.push(describe([value], settings));
  children([value], 1, lines, settings);
  if (lines.length > settings.maxLines) {
    const hidden = lines.length - settings.maxLines + 1;
    lines.length = settings.maxLines - 1;
    lines.push(`… ${hidden} more lines of structure`);
  }
  return lines.join('\n');
}

function typeName(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** One line for the merged values at a position: their types, array lengths, an example scalar. */
function describe(values: JsonValue[], settings: Settings): string {
  const types = [...new Set(values.map(typeName))];
  const parts = types.map((type) => {
    if (type === 'array') {
      const arrays = values.filter(Array.isArray) as JsonValue[][];
      const lengths = arrays.map((array) => array.length);
      const min = Math.min(...lengths);
      const max = Math.max(...lengths);
      const items = itemsOf(arrays, settings);
      const itemTypes = [...new Set(items.map(typeName))];
      const of = items.length === 0 ? '' : ` of ${itemTypes.join(' | ')}`;
      return `array[${min === max ? min : `${min}..${max}`}]${of}`;
    }
    if (type === 'object') {
      const keys = new Set(values.filter(isObject).flatMap((object) => Object.keys(object)));
      return values.length === 1 ? `object, ${keys.size} key${keys.size === 1 ? '' : 's'}` : 'object';
    }
    return type;
  });
  const example = values.find((value) => value !== null && typeof value !== 'object');
  return example === undefined ? parts.join(' | ') : `${parts.join(' | ')} (${exampleOf(example, settings)})`;
}

function children(values: JsonValue[], depth: number, lines: string[], settings: Settings): void {
  if (lines.length > settings.maxLines) return;
  const indent = '  '.repeat(depth);
  const objects = values.filter(isObject);
  const arrays = values.filter(Array.isArray) as JsonValue[][];
  if (depth > settings.maxDepth) {
    if (objects.length > 0 || arrays.some((array) => array.length > 0)) lines.push(`${indent}…`);
    return;
  }
  if (objects.length > 0) {
    const counts = new Map<string, number>();
    for (const object of objects)
      for (const key of Object.keys(object)) counts.set(key, (counts.get(key) ?? 0) + 1);
    let listed = 0;
    for (const [key, count] of counts) {
      if (listed === settings.maxKeys) {
        lines.push(`${indent}… ${counts.size - listed} more keys`);
        break;
      }
      listed++;
      const fieldValues = objects.filter((object) => key in object).map((object) => object[key] as JsonValue);
      const optional = count < objects.length;
      const presence = optional ? ` in ${count} of ${objects.length}` : '';
      lines.push(
        `${indent}${JSON.stringify(key).slice(1, -1)}${optional ? '?' : ''}: ${describe(fieldValues, settings)}${presence}`,
      );
      children(fieldValues, depth + 1, lines, settings);
      if (lines.length > settings.maxLines) return;
    }
  }
  if (arrays.length > 0) {
    const items = itemsOf(arrays, settings);
    if (items.some((item) => item !== null && typeof item === 'object'))
      children(items, depth, lines, settings);
  }
}

function itemsOf(arrays: JsonValue[][], settings: Settings): JsonValue[] {
  const items: JsonValue[] = [];
  for (const array of arrays) {
    for (const item of array) {
      if (items.length >= settings.sampleItems) return items;
      items.push(item);
    }
  }
  return items;
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function exampleOf(value: JsonValue, settings: Settings): string {
  const text = JSON.stringify(value);
  return text.length > settings.exampleChars + 2 ? `${text.slice(0, settings.exampleChars + 1)}…` : text;
}
