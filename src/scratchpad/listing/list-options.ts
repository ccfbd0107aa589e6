import { ScratchpadError } from '../../core/errors.js';

/** How a listing is ordered. `createdAt` and `updatedAt` list oldest first; ties go by name. */
export type ListOrder = 'name' | 'createdAt' | 'updatedAt';
export const LIST_ORDERS: readonly ListOrder[] = ['name', 'createdAt', 'updatedAt'];
/** Most entries one listing returns. */
export const MAX_LIST_LIMIT = 100_000;

/** Options for {@link Scratchpad.list}. */
export interface ListOptions {
  /** Only entries written during this turn. */
  turn?: string;
  /** Only names starting with this. */
  prefix?: string;
  /** At most this many entries (1 to 100,000). */
  limit?: number;
  /** Default `name`. */
  orderBy?: ListOrder;
}

function invalid(message: string, hint: string, option: string): ScratchpadError {
  return new ScratchpadError('INVALID_ARGUMENT', message, { hint, details: { option } });
}

/** `INVALID_ARGUMENT` for a listing option out of its range, before any driver sees it. */
export function validateListOptions(options: ListOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw invalid('List options must be an object.', 'Pass { limit, orderBy, prefix, turn }.', 'options');
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
      'Leave it out to list everything.',
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
