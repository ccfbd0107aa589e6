import type { ListQuery } from '../driver.js';
import { prefixUpperBound } from '../driver-helpers.js';
import { entryColumns } from './postgres-records.js';

const ORDER: Record<NonNullable<ListQuery['orderBy']>, string> = {
  name: 'session, name',
  createdAt: 'created_at, session, name',
  updatedAt: 'updated_at, session, name',
};

const SESSION_ORDER: Record<NonNullable<ListQuery['orderBy']>, string> = {
  name: 'session, name',
  createdAt: 'session, created_at, name',
  updatedAt: 'session, updated_at, name',
};

const TIME_COLUMN = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

/**
 * The SQL and values of a list query on `schema` (quoted). The order matches `sortRecords` (`COLLATE "C"` columns,
 * ASCII names). Within a session every order is an index range (the primary key for `name`,
 * `entries_session_created` / `entries_session_updated` for the time orders, `entries_session_turn` for a turn
 * oldest first), and the keyset condition is a row comparison on the index's columns, so a page after a cursor
 * costs the page.
 */
export function postgresListSql(schema: string, query: ListQuery): { sql: string; values: unknown[] } {
  const conditions: string[] = [];
  const values: unknown[] = [];
  const parameter = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const orderBy = query.orderBy ?? 'name';
  if (query.session !== undefined) conditions.push(`session = ${parameter(query.session)}`);
  if (query.turn !== undefined) conditions.push(`turn = ${parameter(query.turn)}`);
  if (query.pinned !== undefined) conditions.push(`pinned = ${parameter(query.pinned)}`);
  if (query.prefix !== undefined) {
    conditions.push(`starts_with(name, ${parameter(query.prefix)})`);
    const upper = prefixUpperBound(query.prefix);
    if (upper !== undefined)
      conditions.push(`name >= ${parameter(query.prefix)} AND name < ${parameter(upper)}`);
  }
  if (query.expiredAt !== undefined)
    conditions.push(`expires_at IS NOT NULL AND expires_at <= ${parameter(query.expiredAt)}`);
  if (query.liveAt !== undefined)
    conditions.push(`(pinned OR expires_at IS NULL OR expires_at > ${parameter(query.liveAt)})`);
  if (query.after !== undefined) {
    if (orderBy === 'name') conditions.push(`name > ${parameter(query.after.name)}`);
    else {
      const at = parameter(query.after.at ?? Number.MIN_SAFE_INTEGER);
      conditions.push(`(${TIME_COLUMN[orderBy]}, name) > (${at}, ${parameter(query.after.name)})`);
    }
  }
  let sql = `SELECT ${entryColumns()} FROM ${schema}.entries`;
  if (conditions.length > 0) sql += ` WHERE ${conditions.join(' AND ')}`;
  // Within one session, the order is spelled as the session index's columns so the planner matches it exactly.
  sql += ` ORDER BY ${query.session !== undefined ? SESSION_ORDER[orderBy] : ORDER[orderBy]}`;
  if (query.limit !== undefined) sql += ` LIMIT ${parameter(query.limit)}`;
  return { sql, values };
}
