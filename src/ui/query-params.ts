import { ScratchpadError } from '../core/errors.js';

/** Reads and checks the query parameters of one API request; every bad value is `INVALID_ARGUMENT`. */
export class QueryParams {
  readonly #params: URLSearchParams;

  constructor(params: URLSearchParams) {
    this.#params = params;
  }

  /** An integer in `[min, max]`, or `fallback` when the parameter is absent. */
  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.#params.get(name);
    if (raw === null || raw === '') return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `The parameter ${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw.slice(0, 40))}.`,
      );
    }
    return value;
  }

  /** A string of at most `maxChars`, or undefined when absent or empty. */
  text(name: string, maxChars: number): string | undefined {
    const raw = this.#params.get(name);
    if (raw === null || raw === '') return undefined;
    if (raw.length > maxChars) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `The parameter ${name} is ${raw.length} characters; at most ${maxChars} are accepted.`,
      );
    }
    return raw;
  }

  /** A required string of at most `maxChars`. */
  requiredText(name: string, maxChars: number): string {
    const value = this.text(name, maxChars);
    if (value === undefined) {
      throw new ScratchpadError('INVALID_ARGUMENT', `The parameter ${name} is required.`);
    }
    return value;
  }

  /** One of `choices`, or `fallback` when absent. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const raw = this.#params.get(name);
    if (raw === null || raw === '') return fallback;
    if (!(choices as readonly string[]).includes(raw)) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `The parameter ${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(raw.slice(0, 40))}.`,
      );
    }
    return raw as T;
  }

  /** `1`/`true` or `0`/`false`; `fallback` when absent. */
  flag(name: string, fallback: boolean): boolean {
    return this.choice(name, ['1', 'true', '0', 'false'], fallback ? '1' : '0').match(/^(1|true)$/) !== null;
  }
}
