import { Ajv, type ValidateFunction } from 'ajv';

/** Strings longer than this are cut to their ends in a structured preview. */
const LONG_STRING = 1000;
const KEPT_CHARS = 400;
/** Arrays longer than this keep their first items. */
const LONG_ARRAY = 100;
const KEPT_ITEMS = 50;

/**
 * A smaller copy of a tool's `structuredContent`, for results whose full form was stored: long strings keep their
 * two ends around a note that points at the stored entry (`whereStored(value)` names it), long arrays their
 * first items. `changed` tells whether anything was cut.
 */
export function shrinkStructured(
  value: unknown,
  whereStored: (original: string | unknown[]) => string,
): { value: unknown; changed: boolean } {
  let changed = false;
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') {
      if (item.length <= LONG_STRING) return item;
      changed = true;
      const omitted = item.length - 2 * KEPT_CHARS;
      return `${item.slice(0, KEPT_CHARS)}\n[… ${omitted.toLocaleString('en-US')} chars omitted; ${whereStored(item)} …]\n${item.slice(-KEPT_CHARS)}`;
    }
    if (Array.isArray(item)) {
      if (item.length > LONG_ARRAY) {
        changed = true;
        whereStored(item);
        return item.slice(0, KEPT_ITEMS).map(visit);
      }
      return item.map(visit);
    }
    if (item !== null && typeof item === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(item)) out[key] = visit(child);
      return out;
    }
    return item;
  };
  const shrunk = visit(value);
  return { value: shrunk, changed };
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
