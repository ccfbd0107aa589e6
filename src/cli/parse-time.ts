import { InvalidArgumentError } from './commander.js';

/** Commander parser for an ISO 8601 time with its zone (`2026-04-26T04:00:00Z`); milliseconds since the epoch. */
export function isoTime(value: string): number {
  const time = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value)
    ? Date.parse(value)
    : Number.NaN;
  if (Number.isNaN(time))
    throw new InvalidArgumentError(
      `expected an ISO 8601 time with its zone, such as 2026-04-26T04:00:00Z, got ${JSON.stringify(value)}`,
    );
  return time;
}
