import type { JsonValue } from '../../core/json.js';
import { describeJson } from './json-fields.js';
import { jsonShapeLines } from './json-shape.js';

/** Options for {@link jsonStructurePreview}. */
export interface JsonStructurePreviewOptions {
  /** Nesting levels described (default 6). */
  maxDepth?: number;
  /** Keys listed per object (default 40 at the top, 12 nested); the rest are counted and named. */
  maxKeys?: number;
  /** Lines in the whole preview (default 60). */
  maxLines?: number;
  /** Characters of a string kept as its example (default 40). */
  exampleChars?: number;
  /** Containers a truncated read left open: their lengths are shown as lower bounds (`≥`). */
  cut?: ReadonlySet<JsonValue>;
}

/**
 * The shape of a JSON value: key paths with types, array lengths, string categories, number ranges and one
 * example per scalar (see {@link jsonShapeLines}); array items are merged into one shape, so a 10,000-row result
 * reads as a short schema:
 *
 * ```
 * object, 2 keys
 *   users: array[120] of object
 *     id: number (1…120)
 *     email?: string ("ana@example.com") in 97 of 120
 *   next: null
 * ```
 */
export function jsonStructurePreview(value: JsonValue, options: JsonStructurePreviewOptions = {}): string {
  const maxLines = options.maxLines ?? 60;
  const lines = jsonShapeLines(describeJson(value, options.cut), {
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.maxKeys === undefined ? {} : { maxKeys: options.maxKeys, maxNestedKeys: options.maxKeys }),
    ...(options.exampleChars === undefined ? {} : { exampleChars: options.exampleChars }),
  }).map((line) => line.text);
  // Counts of a cut read, or of an array described from its first items, are lower bounds: the first line says so.
  if (lines.some((line) => line.includes('≥'))) {
    lines[0] = `${lines[0]} (counts marked ≥ are lower bounds: read from the start, or from an array's first items)`;
  }
  if (lines.length > maxLines) {
    const hidden = lines.length - maxLines + 1;
    lines.length = maxLines - 1;
    lines.push(`… ${hidden} more lines of structure`);
  }
  return lines.join('\n');
}
