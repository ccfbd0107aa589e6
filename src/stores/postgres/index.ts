/**
 * `agent-scratchpad/postgres`: the PostgreSQL store. Needs the optional `pg` package unless you pass a pool.
 */
export { createPostgresDriver, PostgresDriver, type PostgresDriverConfig } from './postgres-driver.js';
export type { PostgresTarget } from './postgres-errors.js';
export type {
  PostgresClient,
  PostgresPool,
  PostgresQueryable,
  PostgresQueryResult,
} from './postgres-pool.js';
