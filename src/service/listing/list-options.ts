import type { Entry } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import type { ListPosition } from '../../stores/driver.js';
import { decodeListCursor } from './list-cursor.js';

import { LIST_ORDERS, type ListOrder } from './list-order.js';

export { LIST_ORDERS, type ListOrder } from './list-order.js';
/** Most entries one page holds. */
export const MAX_LIST_LIMIT = 100_000;
/** Entries per page when `limit` is left out. */
export const DEFAULT_LIST_LIMIT = 1000;

/** Which entries a listing walks, and in what order. */
export interface ListFilter {
  /** Only entries written during this turn. */
  turn?: string;
  /** Only names starting with this. */
  prefix?: string;
  /** Default `name` (or the order the cursor was made for). */
  orderBy?: ListOrder;
}

/** Options for {@link Scratchpad.list}: a filter, a page size and where to continue. */
export interface ListOptions extends ListFilter {
  /** At most this many entries (1 to 100,000; default 1,000). */
  limit?: number;
  /** The `nextCursor` of the previous page: this page starts after its last entry. */
  cursor?: string;
}

/** One page of a listing. */
export interface ListPage {
  entries: Entry[];
  /** Present when more entries follow: pass it as `cursor` to get the next page. */
  nextCursor?: string;
}

/** A listing's options, checked and with their defaults. */
export interface ResolvedListOptions {
  orderBy: ListOrder;
  limit: number;
  turn?: string;
  prefix?: string;
  after?: ListPosition;
}

function invalid(message: string, hint: string, option: string): ScratchpadError {
  return new ScratchpadError('INVALID_ARGUMENT', message, { hint, details: { option } });
}

/** `INVALID_ARGUMENT` for a listing option out of its range, before any driver sees it. */
function validateListOptions(options: ListOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw invalid(
      'List options must be an object.',
      'Pass { limit, cursor, orderBy, prefix, turn }.',
      'options',
    );
  }
  if (options.orderBy !== undefined && !LIST_ORDERS.includes(options.orderBy)) {
    throw invalid(
      `orderBy must be one of ${LIST_ORDERS.join(', ')}, got ${JSON.stringify(options.orderBy)}.`,
      'Use "name" (the default), "createdAt" or "updatedAt".',
      'orderBy',
    );
  }
  if (
    options.limit !== undefined &&
    (!Number.isSafeInteger(options.limit) || options.limit < 1 || options.limit > MAX_LIST_LIMIT)
  ) {
    throw invalid(
      `limit must be a whole number from 1 to ${MAX_LIST_LIMIT.toLocaleString('en-US')}, got ${String(options.limit)}.`,
      `Leave it out for pages of ${DEFAULT_LIST_LIMIT.toLocaleString('en-US')}; pass each page's nextCursor to get the next.`,
      'limit',
    );
  }
  for (const field of ['prefix', 'turn'] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== 'string' || value.length > 256)) {
      throw invalid(
        `${field} must be a string of at most 256 characters.`,
        `Leave ${field} out to list all.`,
        field,
      );
    }
  }
}

/**
 * Checks `options` and fills in the defaults. A cursor carries its order: without `orderBy` the listing goes on in
 * the cursor's order; an `orderBy` that differs from it is `INVALID_ARGUMENT` (the position would mean nothing).
 */
export function resolveListOptions(options: ListOptions): ResolvedListOptions {
  validateListOptions(options);
  const resolved: ResolvedListOptions = {
    orderBy: options.orderBy ?? 'name',
    limit: options.limit ?? DEFAULT_LIST_LIMIT,
  };
  if (options.turn !== undefined) resolved.turn = options.turn;
  if (options.prefix !== undefined) resolved.prefix = options.prefix;
  if (options.cursor !== undefined) {
    const cursor = decodeListCursor(options.cursor);
    if (options.orderBy !== undefined && options.orderBy !== cursor.orderBy) {
      throw invalid(
        `This cursor continues a listing ordered by ${cursor.orderBy}, not ${options.orderBy}.`,
        `Pass orderBy "${cursor.orderBy}" (or leave it out) with this cursor, or leave the cursor out to start over.`,
        'cursor',
      );
    }
    resolved.orderBy = cursor.orderBy;
    resolved.after = cursor.position;
  }
  return resolved;
}
