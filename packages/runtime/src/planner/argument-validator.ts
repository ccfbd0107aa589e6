import { Ajv, type ValidateFunction } from 'ajv';
import type { JsonObject } from 'llm-scratchpad';

/**
 * Validates tool arguments against the JSON Schema of an executor's manifest (the same schema the model was
 * given). Compiled validators are cached per schema object, so share one validator across turns.
 */
export class ArgumentValidator {
  readonly #ajv = new Ajv({ allErrors: true, strict: false });
  readonly #compiled = new WeakMap<object, ValidateFunction>();

  /** `undefined` when `args` are valid, else the problems in words. */
  check(schema: JsonObject, args: unknown): string[] | undefined {
    let validate = this.#compiled.get(schema);
    if (!validate) {
      try {
        validate = this.#ajv.compile(schema);
      } catch (error) {
        return [`the executor's argument schema is invalid (${(error as Error).message})`];
      }
      this.#compiled.set(schema, validate);
    }
    if (validate(args)) return undefined;
    return (validate.errors ?? []).map((error) => {
      const where =
        error.instancePath === '' ? 'arguments' : error.instancePath.slice(1).replaceAll('/', '.');
      const allowed =
        error.params && 'allowedValues' in error.params
          ? ` (${(error.params.allowedValues as unknown[]).join(', ')})`
          : '';
      const extra =
        error.params && 'additionalProperty' in error.params
          ? ` "${error.params.additionalProperty as string}"`
          : '';
      return `${where} ${error.message ?? 'is invalid'}${extra}${allowed}`;
    });
  }
}

/** The validator turns share: compiling a schema costs about a millisecond, checking one costs microseconds. */
export const sharedArgumentValidator = new ArgumentValidator();
