/** `llm-scratchpad/sqlite`: the default store, one SQLite file (large content in side files next to it). */
// biome-ignore-all assist/source/organizeImports: one export per statement, each with its TSDoc, in reading order

/** Opens the SQLite store at a path, or over a database you opened. */
export { createSqliteDriver, SqliteDriver, type SqliteDriverConfig } from './sqlite-driver.js';
/** Bytes of a content kept inside the database before the rest goes to a side file (1 MiB). */
export { DEFAULT_INLINE_BYTES } from './sqlite-driver.js';
/** How long replaced or deleted content stays readable for readers already on it (10 minutes). */
export { RETIRED_CONTENT_RETENTION_MS } from './sqlite-driver.js';
/** How chunks are stored: `brotli` (default), `gzip`, `zstd` (Node 22.15+) or `none` (decision 008). */
export type { ChunkCompression } from '../chunk-codec.js';
/** The structural part of a SQLite connection the driver uses, for a database you open yourself. */
export type { SqliteDatabase, SqliteRunResult, SqliteStatement } from './sqlite-database.js';
