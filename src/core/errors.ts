/**
 * The one error type of the library. Every failure a caller can act on is a `ScratchpadError` with a documented
 * string `code`; bugs still throw plain errors.
 */

const BRAND = Symbol.for('llm-scratchpad.error');

/** Documented error codes. Tools turn these into results a model can act on. */
export type ScratchpadErrorCode =
  | 'INVALID_NAME'
  | 'INVALID_ARGUMENT'
  | 'ENTRY_NOT_FOUND'
  | 'ENTRY_EXISTS'
  | 'SESSION_NOT_FOUND'
  | 'SLICE_OUT_OF_RANGE'
  | 'INVALID_REGEX'
  | 'REGEX_TIMEOUT'
  | 'VERSION_CONFLICT'
  | 'CONTENT_TOO_LARGE'
  | 'STORE_FULL'
  | 'BUDGET_EXCEEDED'
  | 'NOT_TEXT'
  | 'EDIT_NO_MATCH'
  | 'EDIT_AMBIGUOUS'
  | 'REFERENCE_UNRESOLVED'
  | 'STORE_UNAVAILABLE'
  | 'STORE_CORRUPT'
  | 'PROVIDER_UNREACHABLE'
  | 'PROVIDER_ERROR'
  | 'UPSTREAM_UNAVAILABLE'
  | 'EXECUTOR_INVALID'
  | 'INSIDE_SANDBOX'
  | 'WRITE_REFUSED'
  | 'CONFIG_INVALID'
  | 'SCHEDULER_LOCKED'
  | 'LEASED'
  | 'READ_ONLY'
  | 'CODEC_UNAVAILABLE';

/** Whose fault: the caller's input, our system, or a third party we talk to. */
export type ErrorCategory = 'user' | 'system' | 'third-party';

const CATEGORY: Record<ScratchpadErrorCode, ErrorCategory> = {
  INVALID_NAME: 'user',
  INVALID_ARGUMENT: 'user',
  ENTRY_NOT_FOUND: 'user',
  ENTRY_EXISTS: 'user',
  SESSION_NOT_FOUND: 'user',
  SLICE_OUT_OF_RANGE: 'user',
  INVALID_REGEX: 'user',
  REGEX_TIMEOUT: 'user',
  VERSION_CONFLICT: 'user',
  CONTENT_TOO_LARGE: 'user',
  STORE_FULL: 'system',
  BUDGET_EXCEEDED: 'user',
  NOT_TEXT: 'user',
  EDIT_NO_MATCH: 'user',
  EDIT_AMBIGUOUS: 'user',
  REFERENCE_UNRESOLVED: 'user',
  STORE_UNAVAILABLE: 'system',
  STORE_CORRUPT: 'system',
  PROVIDER_UNREACHABLE: 'third-party',
  PROVIDER_ERROR: 'third-party',
  UPSTREAM_UNAVAILABLE: 'third-party',
  EXECUTOR_INVALID: 'system',
  INSIDE_SANDBOX: 'user',
  WRITE_REFUSED: 'user',
  CONFIG_INVALID: 'user',
  SCHEDULER_LOCKED: 'user',
  LEASED: 'user',
  READ_ONLY: 'user',
  CODEC_UNAVAILABLE: 'system',
};

/** Every error code, in the order `docs/errors.md` lists them. */
export const ERROR_CODES = Object.keys(CATEGORY) as readonly ScratchpadErrorCode[];

/** Options for {@link ScratchpadError}. */
export interface ScratchpadErrorOptions {
  /** What the caller (or a model) should try instead. */
  hint?: string;
  /** Structured facts about the failure (the entry's length, the names that exist, …). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** Base error of the library; check with {@link ScratchpadError.isInstance} across package copies. */
export class ScratchpadError extends Error {
  readonly [BRAND] = true;
  readonly code: ScratchpadErrorCode;
  readonly category: ErrorCategory;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(code: ScratchpadErrorCode, message: string, options: ScratchpadErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ScratchpadError';
    this.code = code;
    this.category = CATEGORY[code];
    this.hint = options.hint;
    this.details = options.details ?? {};
  }

  /** True for any `ScratchpadError`, even one thrown by another copy of this package. */
  static isInstance(value: unknown): value is ScratchpadError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  /** True when `value` is a `ScratchpadError` with the given code. */
  static hasCode(value: unknown, code: ScratchpadErrorCode): value is ScratchpadError {
    return ScratchpadError.isInstance(value) && value.code === code;
  }

  toJSON(): {
    name: string;
    code: ScratchpadErrorCode;
    category: ErrorCategory;
    message: string;
    hint?: string;
    details?: Record<string, unknown>;
  } {
    return {
      name: this.name,
      code: this.code,
      category: this.category,
      message: this.message,
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(Object.keys(this.details).length === 0 ? {} : { details: this.details }),
    };
  }
}
