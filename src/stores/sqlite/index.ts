export type { SqliteDatabase, SqliteRunResult, SqliteStatement } from './sqlite-database.js';
export {
  createSqliteDriver,
  DEFAULT_INLINE_BYTES,
  RETIRED_CONTENT_RETENTION_MS,
  SqliteDriver,
  type SqliteDriverConfig,
} from './sqlite-driver.js';
