import { ScratchpadError } from '../../core/errors.js';

/** Entries a search returns when `limit` is left out. */
export const DEFAULT_SEARCH_LIMIT = 10;
/** Most entries one search returns. */
export const MAX_SEARCH_LIMIT = 1000;

/**
 * A search's `limit`, checked before any driver sees it: a whole number from 1 to {@link MAX_SEARCH_LIMIT}
 * (an engine would read a negative limit as "no limit" and a fraction or NaN as who knows what).
 */
export function resolveSearchLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_SEARCH_LIMIT;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `A search limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT.toLocaleString('en-US')}, got ${String(limit)}.`,
      { hint: `Leave it out for the best ${DEFAULT_SEARCH_LIMIT} entries.`, details: { option: 'limit' } },
    );
  }
  return limit;
}
