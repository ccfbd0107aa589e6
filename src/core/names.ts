import { ScratchpadError } from './errors.js';

/** The rule every entry name and session id follows, in words (used in error messages). */
export const NAME_RULE =
  '1-128 characters of [A-Za-z0-9._-], not starting with "." (so never "." or ".."), no "/" and no NUL';

const NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** True when `value` is a valid entry name or session id. */
export function isValidName(value: unknown): value is string {
  return typeof value === 'string' && NAME_PATTERN.test(value);
}

/**
 * Returns `value` when it is a valid entry name; throws `INVALID_NAME` saying the rule otherwise.
 * Names are a security boundary (the fs backend turns them into file names): they are checked, never rewritten.
 */
export function assertValidName(value: unknown, what = 'name'): string {
  if (isValidName(value)) return value;
  const shown =
    typeof value === 'string'
      ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
      : String(value);
  throw new ScratchpadError('INVALID_NAME', `Invalid ${what} ${shown}: use ${NAME_RULE}.`, {
    hint: `Pick a ${what} like "plan", "findings-1" or "fs_read_3".`,
    details: { [what]: value, rule: NAME_RULE },
  });
}

/** Same rule as names, for session ids. */
export function assertValidSession(value: unknown): string {
  return assertValidName(value, 'session id');
}

/**
 * Turns arbitrary text (a tool name, a tool-call id) into a safe name fragment: keeps the allowed characters,
 * maps the rest to `_`, strips leading dots, and bounds the length (anchors: long tool-call ids broke offload paths).
 */
export function toNameFragment(text: string, maxLength = 48): string {
  const safe = text.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  const bounded = safe.slice(0, maxLength);
  return bounded.length === 0 ? 'entry' : bounded;
}
