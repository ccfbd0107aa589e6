import type { ListQuery } from '../driver.js';
import { prefixUpperBound } from '../driver-helpers.js';
import { ENTRY_COLUMNS } from './sqlite-records.js';

const ORDER: Record<NonNullable<ListQuery['orderBy']>, string> = {
  name: 'session, name',
  createdAt: 'created_at, session, name',
  updatedAt: 'updated_at, session, name',
};

const TIME_COLUMN = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

/**
 * The SQL and parameters of a list query. The SQL depends only on which filters are present, so a driver can
 * cache one prepared statement per shape. The order matches `sortRecords` (names are ASCII, so byte order and
 * JavaScript string order agree). Within a session, every order is an index range (the primary key for `name`,
 * `entries_by_session_created` and `entries_by_session_updated` for the time orders, `entries_by_turn` for a
 * turn oldest first), so a page after a keyset position costs the page, not the session. A name prefix is a range
 * of the primary key (in the time orders its entries are sorted: they cost the prefix, not the session).
 */
export function listEntriesSql(query: ListQuery): { sql: string; parameters: unknown[] } {
  const where: string[] = [];
  const parameters: unknown[] = [];
  const orderBy = query.orderBy ?? 'name';
  if (query.session !== undefined) {
    where.push('session = ?');
    parameters.push(query.session);
  }
  if (query.turn !== undefined) {
    where.push('turn = ?');
    parameters.push(query.turn);
  }
  if (query.pinned !== undefined) {
    where.push('pinned = ?');
    parameters.push(query.pinned ? 1 : 0);
  }
  if (query.prefix !== undefined) {
    where.push('substr(name, 1, length(?)) = ?');
    parameters.push(query.prefix, query.prefix);
    const upper = prefixUpperBound(query.prefix);
    if (upper !== undefined) {
      where.push('name >= ? AND name < ?');
      parameters.push(query.prefix, upper);
    }
  }
  if (query.expiredAt !== undefined) {
    where.push('expires_at IS NOT NULL AND expires_at <= ?');
    parameters.push(query.expiredAt);
  }
  if (query.liveAt !== undefined) {
    where.push('(pinned = 1 OR expires_at IS NULL OR expires_at > ?)');
    parameters.push(query.liveAt);
  }
  if (query.after !== undefined) {
    if (orderBy === 'name') {
      where.push('name > ?');
      parameters.push(query.after.name);
    } else {
      where.push(`(${TIME_COLUMN[orderBy]}, name) > (?, ?)`);
      parameters.push(query.after.at ?? Number.MIN_SAFE_INTEGER, query.after.name);
    }
  }
  // A turn's entries are found through their own index (in the other orders they are then sorted: a turn's
  // entries, not the session's); without the hint the planner walks the whole session in the order's index.
  let sql = `SELECT ${ENTRY_COLUMNS} FROM entries${query.session !== undefined && query.turn !== undefined ? ' INDEXED BY entries_by_turn' : ''}`;
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
  sql += ` ORDER BY ${ORDER[orderBy]}`;
  if (query.limit !== undefined) {
    sql += ' LIMIT ?';
    parameters.push(query.limit);
  }
  return { sql, parameters };
}
