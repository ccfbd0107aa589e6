import { INVALID_TOOL_ARGUMENTS, invalidToolArguments } from '../model/language-model.js';

/**
 * A tool call's arguments as a record. An object is taken as is; a string is parsed as JSON (an empty string is
 * `{}`); anything that is not a JSON object becomes `{ [INVALID_TOOL_ARGUMENTS]: { error, raw } }` so the
 * planner can tell the model what was wrong instead of failing the turn.
 */
export function parseToolArguments(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value !== 'string') return invalid('the arguments are not a JSON object', JSON.stringify(value));
  if (value.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    return invalid(`the arguments are not valid JSON (${(error as Error).message})`, value);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return invalid('the arguments are not a JSON object', value);
  }
  return parsed as Record<string, unknown>;
}

/** The JSON text of `args`; the original text when they carry a parse failure, so history stays faithful. */
export function serializeToolArguments(args: Record<string, unknown>): string {
  return invalidToolArguments({ arguments: args })?.raw ?? JSON.stringify(args);
}

function invalid(error: string, raw: string): Record<string, unknown> {
  return { [INVALID_TOOL_ARGUMENTS]: { error, raw } };
}
