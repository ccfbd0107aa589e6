import { ScratchpadError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';
import { MAX_TTL_MS, MIN_TTL_MS } from '../../core/ttl.js';

/**
 * Checks for the options every write, update and listing takes, at the service boundary: a value a driver cannot
 * store faithfully is an `INVALID_ARGUMENT` naming the accepted range before any backend sees it, so every
 * backend answers the same.
 */

/** Largest metadata object, serialized as JSON. */
const MAX_METADATA_BYTES = 64 * 1024;
/** Deepest nesting of metadata objects and arrays. */
const MAX_METADATA_DEPTH = 32;
/** Longest media type. */
const MAX_MEDIA_TYPE_LENGTH = 255;

function invalid(message: string, hint: string, details: Record<string, unknown> = {}): ScratchpadError {
  return new ScratchpadError('INVALID_ARGUMENT', message, { hint, details });
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return typeof value;
}

/** A TTL is whole milliseconds from 1,000 (one second) to 100 years, or `null` (keep forever). */
export function validateTtl(ttlMs: unknown): void {
  if (ttlMs === null) return;
  if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < MIN_TTL_MS || ttlMs > MAX_TTL_MS) {
    throw invalid(
      `ttlMs must be whole milliseconds from ${MIN_TTL_MS} (one second) to ${MAX_TTL_MS} (100 years), got ${shown(ttlMs)}.`,
      'Use null to keep the entry forever.',
      { option: 'ttlMs', min: MIN_TTL_MS, max: MAX_TTL_MS },
    );
  }
}

/** `pinned` is a boolean. */
export function validatePinned(pinned: unknown): void {
  validateBoolean(pinned, 'pinned');
}

/** A flag option is `true` or `false`. */
export function validateBoolean(value: unknown, option: string): void {
  if (typeof value !== 'boolean') {
    throw invalid(`${option} must be true or false, got ${shown(value)}.`, 'Pass a boolean.', { option });
  }
}

/** A media type is a non-empty string of printable ASCII up to 255 characters. */
export function validateMediaType(mediaType: unknown): void {
  if (
    typeof mediaType !== 'string' ||
    mediaType.length === 0 ||
    mediaType.length > MAX_MEDIA_TYPE_LENGTH ||
    !/^[\x20-\x7e]+$/.test(mediaType)
  ) {
    throw invalid(
      `mediaType must be 1-${MAX_MEDIA_TYPE_LENGTH} printable ASCII characters, got ${shown(mediaType)}.`,
      'Use a media type such as "text/markdown" or "application/json".',
      { option: 'mediaType' },
    );
  }
}

/**
 * Metadata is a JSON object: plain objects, arrays, strings, finite numbers, booleans and null, nested at most
 * {@link MAX_METADATA_DEPTH} deep and at most {@link MAX_METADATA_BYTES} as JSON.
 */
export function validateMetadata(metadata: unknown): void {
  if (!isPlainObject(metadata)) {
    throw invalid(
      `metadata must be a JSON object, got ${shown(metadata)}.`,
      'Pass an object such as {"tag": "x"}.',
      {
        option: 'metadata',
      },
    );
  }
  const problem = jsonProblem(metadata, 'metadata', 0);
  if (problem) {
    throw invalid(
      `metadata must be plain JSON: ${problem}.`,
      'Use objects, arrays, strings, finite numbers, booleans and null.',
      {
        option: 'metadata',
      },
    );
  }
  const bytes = Buffer.byteLength(JSON.stringify(metadata));
  if (bytes > MAX_METADATA_BYTES) {
    throw invalid(
      `metadata is ${formatBytes(bytes)} as JSON; at most ${formatBytes(MAX_METADATA_BYTES)} is accepted.`,
      'Store large data as an entry of its own and keep its name in the metadata.',
      { option: 'metadata', bytes, max: MAX_METADATA_BYTES },
    );
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function jsonProblem(value: unknown, path: string, depth: number): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${String(value)}`;
  if (depth >= MAX_METADATA_DEPTH) return `${path} is nested deeper than ${MAX_METADATA_DEPTH} levels`;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = jsonProblem(value[index], `${path}[${index}]`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isPlainObject(value))
    return `${path} is ${typeof value === 'object' ? 'not a plain object' : `a ${typeof value}`}`;
  for (const key of Object.keys(value)) {
    const problem = jsonProblem(value[key], `${path}.${key}`, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}
