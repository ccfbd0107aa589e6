import { formatCount } from '../../core/format.js';
import type { JsonValue } from '../../core/json.js';
import type { JsonField } from './json-fields.js';

/** One line of a shape, with its nesting depth (shallow lines matter most when space is short). */
export interface ShapeLine {
  text: string;
  depth: number;
}

/** Options for {@link jsonShapeLines}. */
export interface JsonShapeOptions {
  /** Nesting levels described (default 6). */
  maxDepth?: number;
  /** Keys listed per object at the top level (default 40); the rest are counted and named. */
  maxKeys?: number;
  /** Keys listed per nested object (default 12). */
  maxNestedKeys?: number;
  /** Characters of a string example (default 40). */
  exampleChars?: number;
}

type Settings = Required<JsonShapeOptions>;

// An object with more keys than this, all holding one type, reads as a map (`object with 3,129 keys like …`).
const MAP_KEYS = 30;

/**
 * The shape of a JSON document as key paths with their types: arrays with their lengths (`≥` when the read was
 * cut) and their items merged (`key?:` for keys only some items have, with how many), string categories with
 * counts, number ranges, one example per scalar, and maps summarised by their keys:
 *
 * ```
 * object, 3 keys
 *   users: array[120] of object
 *     id: number (1…120)
 *     role: string ("admin" 3, "user" 117)
 *     email?: string ("ana@example.com") in 97 of 120
 *   next: null
 * ```
 */
export function jsonShapeLines(root: JsonField, options: JsonShapeOptions = {}): ShapeLine[] {
  const settings: Settings = {
    maxDepth: options.maxDepth ?? 6,
    maxKeys: options.maxKeys ?? 40,
    maxNestedKeys: options.maxNestedKeys ?? 12,
    exampleChars: options.exampleChars ?? 40,
  };
  const lines: ShapeLine[] = [{ text: describe(root, settings, true), depth: 0 }];
  children(root, 1, lines, settings);
  return lines;
}

/** The path and the first item of the longest array of objects in the document (`features[0]`), if any. */
export function exampleItem(value: JsonValue): { path: string; item: JsonValue } | undefined {
  let best: { path: string; item: JsonValue; length: number } | undefined;
  const visit = (node: JsonValue, path: string, depth: number) => {
    if (depth > 8 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      const first = node[0];
      if (
        first !== undefined &&
        first !== null &&
        typeof first === 'object' &&
        node.length >= (best?.length ?? 2)
      ) {
        if (!best || node.length > best.length)
          best = { path: `${path}[0]`, item: first, length: node.length };
      }
      if (first !== undefined) visit(first, `${path}[0]`, depth + 1);
      return;
    }
    for (const [key, child] of Object.entries(node))
      visit(child, path === '' ? key : `${path}.${key}`, depth + 1);
  };
  visit(value, '', 0);
  return best && { path: best.path, item: best.item };
}

function children(field: JsonField, depth: number, lines: ShapeLine[], settings: Settings): void {
  const indent = '  '.repeat(depth);
  if (field.children.size > 0 && !isMap(field)) {
    let listed = 0;
    const maxKeys = depth === 1 ? settings.maxKeys : Math.min(settings.maxKeys, settings.maxNestedKeys);
    for (const [key, child] of field.children) {
      if (listed === maxKeys) {
        const rest = [...field.children.keys()].slice(listed);
        const names = rest.join(', ');
        lines.push({
          text: `${indent}… ${formatCount(rest.length)} more keys: ${names.length > 160 ? `${names.slice(0, 160)}…` : names}`,
          depth,
        });
        break;
      }
      listed++;
      const optional = child.seen < field.objects;
      const presence = !optional
        ? ''
        : field.partial
          ? ` in ${formatCount(child.seen)} of the ${formatCount(field.objects)} read`
          : ` in ${formatCount(child.seen)} of ${formatCount(field.objects)}`;
      lines.push({
        text: `${indent}${JSON.stringify(key).slice(1, -1)}${optional ? '?' : ''}: ${describe(child, settings, false)}${presence}`,
        depth,
      });
      if (depth < settings.maxDepth) children(child, depth + 1, lines, settings);
      else if (child.children.size > 0 || child.items) lines.push({ text: `${indent}  …`, depth: depth + 1 });
    }
  }
  // Items of an array of objects (or arrays) are described under the array, one level deeper.
  const items = field.items;
  if (items && (items.objects > 0 || items.arrays) && depth <= settings.maxDepth) {
    if (items.children.size > 0 && !isMap(items)) children(items, depth, lines, settings);
    else if (items.items) children(items, depth, lines, settings);
  }
}

/** One line for the values at a position: their types, with lengths, categories, ranges or an example. */
function describe(field: JsonField, settings: Settings, top: boolean): string {
  const parts: string[] = [];
  for (const type of field.types.keys()) {
    if (type === 'array' && field.arrays) {
      const { min, max, cut } = field.arrays;
      const length =
        min === max
          ? `${cut ? '≥' : ''}${formatCount(min)}`
          : `${formatCount(min)}..${cut ? '≥' : ''}${formatCount(max)}`;
      const itemTypes = field.items ? [...field.items.types.keys()] : [];
      const of = itemTypes.length === 0 ? '' : ` of ${itemTypes.join(' | ')}`;
      const scalars =
        field.items && field.items.objects === 0 && !field.items.arrays
          ? scalarSummary(field.items, settings)
          : '';
      parts.push(`array[${length}]${of}${scalars}`);
    } else if (type === 'object') {
      if (isMap(field)) {
        const keys = [...field.children.keys()].slice(0, 3).map((key) => JSON.stringify(key));
        const values = [...(field.children.values().next().value?.types.keys() ?? [])].join(' | ');
        parts.push(`object with ${formatCount(field.keyCount)} keys like ${keys.join(', ')}: ${values}`);
      } else {
        parts.push(
          top || field.objects === 1
            ? `object, ${formatCount(field.keyCount)} key${field.keyCount === 1 ? '' : 's'}`
            : 'object',
        );
      }
    } else if (type !== 'null' || field.types.size === 1) {
      parts.push(type);
    }
  }
  const nulls = field.types.get('null') ?? 0;
  const nullNote = nulls > 0 && field.types.size > 1 ? ` (null in ${atLeast(field, nulls)})` : '';
  const hasScalar = [...field.types.keys()].some(
    (type) => type === 'string' || type === 'number' || type === 'boolean',
  );
  return `${parts.join(' | ')}${hasScalar ? scalarSummary(field, settings) : ''}${nullNote}`;
}

/** `("USA" 254, "Japan" 79)` for a category, `(8…46.6)` for numbers, else one example. */
function scalarSummary(field: JsonField, settings: Settings): string {
  const example = (value: JsonValue) => {
    const text = JSON.stringify(value);
    return text.length > settings.exampleChars + 2 ? `${text.slice(0, settings.exampleChars + 1)}…` : text;
  };
  const strings = field.types.get('string') ?? 0;
  if (field.strings && field.strings.size <= 6 && field.strings.size < strings && strings >= 10) {
    const counts = [...field.strings].sort((a, b) => b[1] - a[1]);
    return ` (${counts.map(([value, count]) => `${example(value)} ${atLeast(field, count)}`).join(', ')})`;
  }
  const numbers = field.types.get('number') ?? 0;
  if (numbers >= 5 && field.min !== undefined && field.max !== undefined && field.min < field.max) {
    return ` (${field.min}…${field.max}${field.partial ? ' in the items read' : ''})`;
  }
  const { true: yes, false: no } = field.booleans;
  if (yes > 0 && no > 0) return ` (true ${atLeast(field, yes)}, false ${atLeast(field, no)})`;
  return field.example === undefined ? '' : ` (${example(field.example)})`;
}

/** A count of values at a position: marked as a lower bound (`≥12`) when only part of them was read. */
function atLeast(field: JsonField, count: number): string {
  return `${field.partial ? '≥' : ''}${formatCount(count)}`;
}

/** Many keys, all holding values of one type: keys are data (versions, ids, dates), not field names. */
function isMap(field: JsonField): boolean {
  if (field.keyCount <= MAP_KEYS) return false;
  const types = new Set<string>();
  for (const child of field.children.values()) for (const type of child.types.keys()) types.add(type);
  return types.size === 1;
}
