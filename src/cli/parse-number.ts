import { ScratchpadError } from '../core/errors.js';
import { type LineRange, parseLineRange } from '../core/line-range.js';
import { MAX_TTL_SECONDS, TTL_SECONDS_RANGE } from '../core/ttl.js';
import { InvalidArgumentError } from './commander.js';

/** Commander parser for a non-negative integer flag (a malformed value is a usage error, exit 2). */
export function nonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value))
    throw new InvalidArgumentError(`expected a non-negative integer, got ${JSON.stringify(value)}`);
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new InvalidArgumentError(`${value} is too large`);
  return number;
}

/** Commander parser for a TTL: whole seconds from 1 to 100 years. */
export function ttlSeconds(value: string): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 1 && number <= MAX_TTL_SECONDS))
    throw new InvalidArgumentError(`expected ${TTL_SECONDS_RANGE}, got ${JSON.stringify(value)}`);
  return number;
}

/** Parses `START:END` (both non-negative integers; END optional). */
export function characterRange(value: string): { start: number; end?: number } {
  const match = /^(\d+):(\d*)$/.exec(value);
  if (!match) throw new InvalidArgumentError(`expected START:END, got ${JSON.stringify(value)}`);
  return match[2] === '' ? { start: Number(match[1]) } : { start: Number(match[1]), end: Number(match[2]) };
}

/** Commander parser for `--lines`: the tools' own {@link parseLineRange}, its error as a usage error (exit 2). */
export function lineRange(value: string): LineRange {
  try {
    return parseLineRange(value);
  } catch (error) {
    if (!(error instanceof ScratchpadError)) throw error;
    throw new InvalidArgumentError(`${error.message} ${error.hint ?? ''}`.trim());
  }
}

/** Commander parser for a positive integer flag (sizes, counts). */
export function positiveInteger(value: string): number {
  const number = nonNegativeInteger(value);
  if (number === 0) throw new InvalidArgumentError('expected a positive integer, got 0');
  return number;
}
