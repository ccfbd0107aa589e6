import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { isValidName } from '../../core/names.js';
import type { ListPosition } from '../../stores/driver.js';
import type { ListOrder } from './list-order.js';

/** Where a listing continues: the order it was made for and the last entry of the page before. */
export interface DecodedCursor {
  orderBy: ListOrder;
  position: ListPosition;
}

const ORDER_CODES: Record<ListOrder, string> = { name: 'n', createdAt: 'c', updatedAt: 'u' };
const ORDERS_BY_CODE = new Map(
  Object.entries(ORDER_CODES).map(([order, code]) => [code, order as ListOrder]),
);

/** Longest cursor this version makes (a 128-character name, a time, the order): anything longer is not ours. */
const MAX_CURSOR_LENGTH = 400;

/**
 * The opaque cursor after `record` in `orderBy`: base64url of `{v, o, n, t}` (version, order, the entry's name,
 * and its time for the time orders). It names a position, not an offset, so a page after it neither repeats nor
 * skips an entry that existed throughout, whatever was inserted or deleted in between.
 */
export function encodeListCursor(
  orderBy: ListOrder,
  record: Pick<EntryRecord, 'name' | 'createdAt' | 'updatedAt'>,
): string {
  const value: { v: 1; o: string; n: string; t?: number } = { v: 1, o: ORDER_CODES[orderBy], n: record.name };
  if (orderBy !== 'name') value.t = record[orderBy];
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The position a cursor continues after; `INVALID_ARGUMENT` naming the accepted form for anything else. */
export function decodeListCursor(cursor: unknown): DecodedCursor {
  if (typeof cursor === 'string' && cursor.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9_-]+$/.test(cursor)) {
    try {
      const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
      const orderBy = typeof value.o === 'string' ? ORDERS_BY_CODE.get(value.o) : undefined;
      const timed = orderBy !== 'name';
      if (
        value.v === 1 &&
        orderBy !== undefined &&
        isValidName(value.n) &&
        (timed ? Number.isSafeInteger(value.t) : value.t === undefined)
      ) {
        return {
          orderBy,
          position: timed ? { name: value.n, at: value.t as number } : { name: value.n },
        };
      }
    } catch {
      // reported below
    }
  }
  const shown = typeof cursor === 'string' ? JSON.stringify(cursor.slice(0, 40)) : String(cursor);
  throw new ScratchpadError(
    'INVALID_ARGUMENT',
    `Invalid list cursor ${shown}: not a cursor a listing returned.`,
    {
      hint: 'Pass the nextCursor of the previous page unchanged (an opaque base64url string), or leave the cursor out to list from the start.',
      details: { option: 'cursor' },
    },
  );
}
