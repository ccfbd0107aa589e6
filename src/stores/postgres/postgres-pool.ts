/**
 * The small structural part of `pg` the PostgreSQL backend uses, so a caller can pass the `pg.Pool` they already
 * have (or any pool with the same shape). The package declares `pg` ^8.11 as an optional peer for the pool it
 * creates itself; a pool you pass may come from any version with this shape.
 */

/** What the driver reads from a query result. */
export interface PostgresQueryResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/** Anything that runs a parameterized query (`$1`, `$2`, …). */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
}

/** A connection checked out of a pool: the driver runs one transaction on it, then releases it. */
export interface PostgresClient extends PostgresQueryable {
  /** Returns the connection to the pool; a truthy argument destroys it instead (after a connection error). */
  release(destroy?: Error | boolean): void;
}

/** A connection pool shaped like `pg.Pool`. */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresClient>;
  end(): Promise<void>;
}
