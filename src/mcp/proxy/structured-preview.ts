import { Ajv, type ValidateFunction } from 'ajv';
import { formatCount } from '../../core/format.js';
import { codePointLength } from '../../core/utf8.js';
import type { JsonPath } from './json-pointer.js';

/** Strings longer than this (in code points) are cut to their ends in a structured preview. */
const LONG_STRING = 1000;
const KEPT_CHARS = 400;
/** Arrays longer than this keep their first items. */
const LONG_ARRAY = 100;
const KEPT_ITEMS = 50;

/** A value the preview shortens: a long string or a long array, at `path` in the structured content. */
export interface StructuredCut {
  path: JsonPath;
  value: string | unknown[];
}

/** An array the preview shortened, and how much of it is kept. */
export interface ShortenedArray {
  path: JsonPath;
  kept: number;
  total: number;
}

/**
 * Every value {@link shrinkStructured} would shorten (inside a long array, only the items it keeps are visited).
 */
export function structuredCuts(value: unknown): StructuredCut[] {
  const cuts: StructuredCut[] = [];
  walk(value, [], {
    string: (item, path) => cuts.push({ path, value: item }),
    array: (item, path) => cuts.push({ path, value: item }),
  });
  return cuts;
}

/**
 * A smaller copy of a tool's `structuredContent`, for results whose cut values were stored: a long string keeps
 * its first and last 400 code points around a note saying how many were omitted and `whereStored(path, value)`
 * (which entry, and where in it, holds the value whole); a long array keeps its first 50 items and, with
 * `arrayMarkers`, ends with one string item saying how many were omitted and where the whole array is (without,
 * the caller says so elsewhere: see `shortened`). Objects keep every key.
 */
export function shrinkStructured(
  value: unknown,
  whereStored: (path: JsonPath, original: string | unknown[]) => string,
  options: { arrayMarkers: boolean },
): { value: unknown; shortened: ShortenedArray[] } {
  const shortened: ShortenedArray[] = [];
  const shrunk = walk(value, [], {
    string: (item, path) => {
      const head = codePointPrefix(item, KEPT_CHARS);
      const tail = codePointSuffix(item, KEPT_CHARS);
      const omitted = codePointLength(item) - 2 * KEPT_CHARS;
      return `${head}\n[… ${formatCount(omitted)} chars omitted; the whole value is ${whereStored(path, item)} …]\n${tail}`;
    },
    array: (item, path, kept) => {
      shortened.push({ path, kept: kept.length, total: item.length });
      if (!options.arrayMarkers) return kept;
      const omitted = item.length - kept.length;
      return [
        ...kept,
        `[… ${formatCount(omitted)} of ${formatCount(item.length)} items omitted; the whole array is ${whereStored(path, item)} …]`,
      ];
    },
  });
  return { value: shrunk, shortened };
}

/** What to do with each long string and each long array (given the preview of the items it keeps). */
interface CutVisitor {
  string(item: string, path: JsonPath): unknown;
  array(item: unknown[], path: JsonPath, kept: unknown[]): unknown;
}

function walk(item: unknown, path: JsonPath, visitor: CutVisitor): unknown {
  if (typeof item === 'string') {
    return item.length > LONG_STRING && codePointLength(item) > LONG_STRING
      ? visitor.string(item, path)
      : item;
  }
  if (Array.isArray(item)) {
    if (item.length > LONG_ARRAY) {
      const kept = item.slice(0, KEPT_ITEMS).map((child, index) => walk(child, [...path, index], visitor));
      return visitor.array(item, path, kept);
    }
    return item.map((child, index) => walk(child, [...path, index], visitor));
  }
  if (item !== null && typeof item === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(item)) out[key] = walk(child, [...path, key], visitor);
    return out;
  }
  return item;
}

/** The first `count` code points of `text` (a surrogate pair is never split). */
function codePointPrefix(text: string, count: number): string {
  let index = 0;
  for (let taken = 0; taken < count && index < text.length; taken++)
    index += isHighSurrogateAt(text, index) ? 2 : 1;
  return text.slice(0, index);
}

/** The last `count` code points of `text`. */
function codePointSuffix(text: string, count: number): string {
  let index = text.length;
  for (let taken = 0; taken < count && index > 0; taken++) index -= isLowSurrogateAt(text, index - 1) ? 2 : 1;
  return text.slice(Math.max(0, index));
}

function isHighSurrogateAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  const next = text.charCodeAt(index + 1);
  return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
}

function isLowSurrogateAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  const previous = text.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff;
}

/** Validates structured content against tools' output schemas (compiled once per schema). */
export class OutputSchemaValidator {
  readonly #ajv = new Ajv({ strict: false, validateFormats: false });
  readonly #compiled = new WeakMap<object, ValidateFunction | null>();

  /** True when `value` conforms to `schema` (a schema that does not compile accepts nothing). */
  conforms(schema: object, value: unknown): boolean {
    let validate = this.#compiled.get(schema);
    if (validate === undefined) {
      try {
        validate = this.#ajv.compile(schema);
      } catch {
        validate = null;
      }
      this.#compiled.set(schema, validate);
    }
    return validate !== null && validate(value) === true;
  }
}
