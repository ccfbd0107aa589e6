/**
 * The one error type of the library. Every failure a caller can act on is a `ScratchpadError` with a documented
 * string `code`; bugs still throw plain errors. Core owns the error type, its formatter (`format-error.ts`) and the
 * library's own codes (core, config, stores, the service, the context manager, the tools); each layer above declares
 * its own codes in a module of its own with {@link defineErrorCodes} (`runtime/runtime-errors.ts`,
 * `mcp/mcp-errors.ts`), so core names no code of a layer above it. `docs/errors.md` lists every code by owner.
 */

const BRAND = Symbol.for('llm-scratchpad.error');

/**
 * The library's own error codes (the runtime's are `RuntimeErrorCode`, the MCP proxy's `McpErrorCode`). Tools turn
 * these into results a model can act on.
 */
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
  | 'CONFIG_INVALID'
  | 'LEASED'
  | 'READ_ONLY'
  | 'CODEC_UNAVAILABLE';

/** Whose fault: the caller's input, our system, or a third party we talk to. */
export type ErrorCategory = 'user' | 'system' | 'third-party';

/** The category of each code a layer owns: what a layer gives {@link defineErrorCodes}. */
export type ErrorCodeCategories<Code extends string> = Readonly<Record<Code, ErrorCategory>>;

const CATEGORY: ErrorCodeCategories<ScratchpadErrorCode> = {
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
  CONFIG_INVALID: 'user',
  LEASED: 'user',
  READ_ONLY: 'user',
  CODEC_UNAVAILABLE: 'system',
};

/** The library's own error codes, in the order `docs/errors.md` lists them. */
export const ERROR_CODES = Object.keys(CATEGORY) as readonly ScratchpadErrorCode[];

/** Options for {@link ScratchpadError}. */
export interface ScratchpadErrorOptions {
  /** What the caller (or a model) should try instead. */
  hint?: string;
  /** Structured facts about the failure (the entry's length, the names that exist, …). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** Options for a code core does not own (a layer's, see {@link defineErrorCodes}): they carry its category. */
export interface LayerErrorOptions extends ScratchpadErrorOptions {
  category: ErrorCategory;
}

/** Base error of the library; check with {@link ScratchpadError.isInstance} across package copies. */
export class ScratchpadError extends Error {
  readonly [BRAND] = true;
  /** One of the library's codes ({@link ScratchpadErrorCode}) or one a layer above declares. */
  readonly code: string;
  readonly category: ErrorCategory;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;

  /** An error with one of the library's codes; its category is the code's. */
  constructor(code: ScratchpadErrorCode, message: string, options?: ScratchpadErrorOptions);
  /** An error with a code a layer declares, and that code's category (a library code keeps its own category). */
  constructor(code: string, message: string, options: LayerErrorOptions);
  constructor(
    code: string,
    message: string,
    options: ScratchpadErrorOptions & { category?: ErrorCategory } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ScratchpadError';
    this.code = code;
    this.category = Object.hasOwn(CATEGORY, code)
      ? CATEGORY[code as ScratchpadErrorCode]
      : (options.category as ErrorCategory);
    this.hint = options.hint;
    this.details = options.details ?? {};
  }

  /** True for any `ScratchpadError`, even one thrown by another copy of this package. */
  static isInstance(value: unknown): value is ScratchpadError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  /** True when `value` is a `ScratchpadError` with the given code. */
  static hasCode(value: unknown, code: string): value is ScratchpadError {
    return ScratchpadError.isInstance(value) && value.code === code;
  }

  toJSON(): {
    name: string;
    code: string;
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

/** A layer's error codes: its codes in the order `docs/errors.md` lists them, and the constructor of its errors. */
export interface LayerErrorCodes<Code extends string> {
  readonly codes: readonly Code[];
  /** A `ScratchpadError` with one of this layer's codes and that code's category. */
  error(code: Code, message: string, options?: ScratchpadErrorOptions): ScratchpadError;
}

/** Declares the error codes a layer above core owns, with their categories (see `runtime/runtime-errors.ts`). */
export function defineErrorCodes<Code extends string>(
  categories: ErrorCodeCategories<Code>,
): LayerErrorCodes<Code> {
  return {
    codes: Object.keys(categories) as Code[],
    error: (code, message, options = {}) =>
      new ScratchpadError(code, message, { ...options, category: categories[code] }),
  };
}
