/**
 * `llm-scratchpad/postgres`: the PostgreSQL store. Needs the optional `pg` package unless you pass a pool.
 */
// biome-ignore-all assist/source/organizeImports: one export per statement, each with its TSDoc, in reading order

/** Connects to PostgreSQL (or takes your pool) and migrates the schema. */
export { createPostgresDriver, PostgresDriver, type PostgresDriverConfig } from './postgres-driver.js';
/** The server and database a driver talks to, as error messages name it (never the password). */
export type { PostgresTarget } from './postgres-errors.js';
/** The structural part of `pg` the driver uses, so any `pg.Pool`-shaped pool works. */
export type {
  PostgresClient,
  PostgresPool,
  PostgresQueryable,
  PostgresQueryResult,
} from './postgres-pool.js';
