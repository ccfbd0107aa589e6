import type { ListQuery } from '../driver.js';
import { ENTRY_COLUMNS } from './sqlite-records.js';

const ORDER: Record<NonNullable<ListQuery['orderBy']>, string> = {
  name: 'session, name',
  createdAt: 'created_at, session, name',
  updatedAt: 'updated_at, session, name',
};

/**
 * The SQL and parameters of a list query. The SQL depends only on which filters are present, so a driver can
 * cache one prepared statement per shape. The order matches `sortRecords` (names are ASCII, so byte order and
 * JavaScript string order agree).
 */
export function listEntriesSql(query: ListQuery): { sql: string; parameters: unknown[] } {
  const where: string[] = [];
  const parameters: unknown[] = [];
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
  }
  if (query.expiredAt !== undefined) {
    where.push('expires_at IS NOT NULL AND expires_at <= ?');
    parameters.push(query.expiredAt);
  }
  let sql = `SELECT ${ENTRY_COLUMNS} FROM entries`;
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
  sql += ` ORDER BY ${ORDER[query.orderBy ?? 'name']}`;
  if (query.limit !== undefined) {
    sql += ' LIMIT ?';
    parameters.push(query.limit);
  }
  return { sql, parameters };
}
