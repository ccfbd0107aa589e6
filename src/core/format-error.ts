import { ScratchpadError } from './errors.js';

/** The structured form of an error, as every machine-readable surface shows it (tool data, CLI `--json`). */
export interface ErrorPayload {
  /** The error's code (the library's own, or one a layer above declares). */
  code: string;
  message: string;
  hint?: string;
}

/**
 * The one text form of a `ScratchpadError`, wherever a person or a model reads it (tool results, MCP, the CLI,
 * runtime observations and turn messages): `Error (CODE): message hint`. The hint is the sentence that says what
 * to try instead, so it follows the message as its own sentence.
 */
export function formatError(error: ScratchpadError): string {
  return `Error (${error.code}): ${error.message}${error.hint ? ` ${error.hint}` : ''}`;
}

/** The structured form of a `ScratchpadError`: its code, message and hint (details and cause stay internal). */
export function errorPayload(error: ScratchpadError): ErrorPayload {
  return {
    code: error.code,
    message: error.message,
    ...(error.hint ? { hint: error.hint } : {}),
  };
}

/**
 * `formatError` for a `ScratchpadError`; for anything else (a bug or a foreign failure) `Error: message`, so every
 * surface that must not throw shows one shape.
 */
export function formatUnknownError(error: unknown): string {
  if (ScratchpadError.isInstance(error)) return formatError(error);
  return `Error: ${error instanceof Error ? error.message : String(error)}`;
}
