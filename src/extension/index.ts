/**
 * `llm-scratchpad/extension`: what a package built on the library uses beside the root export — the config
 * file's reader (each package reads its own sections of `config.toml`), the folders the CLI keeps its data and
 * configuration in, store URLs, a small SQLite file for a package's own state, and the number formats the CLI
 * prints. The agent runtime (`llm-scratchpad-runtime`) is built on it and on the public entry points only.
 *
 * Every export below is deliberate (test/public-api.test.ts pins the list).
 */
// biome-ignore-all assist/source/organizeImports: grouped by concept, in reading order

// ── config.toml ──────────────────────────────────────────────────────────────────────────────────────────────

/** Where `config.toml` is: `$SCRATCHPAD_CONFIG`, else `<config dir>/config.toml`. */
export { configFilePath, type Environment } from '../config/config-path.js';
/** The typed error for a `config.toml` that cannot be read or parsed, naming the file. */
export { configReadError } from '../config/config-read-error.js';
/** Parses TOML text (the config file's dialect). */
export { parseToml } from '../config/parse-toml.js';
/**
 * Checks one section of a parsed config against a zod schema of {@link configField} values: typed keys, unknown
 * keys and wrong values reported with the key's line, what it expects and what was given.
 */
export { parseConfigSection } from '../config/parse-config-section.js';
/** Schemas for config values (boolean, whole number, string, choice, string list, custom), each saying what it expects. */
export { configField, type ConfigFieldMeta } from '../config/config-field.js';
/** The `CONFIG_INVALID` for one key of a config file (`path:line: message`), for checks across keys. */
export { configProblem, type ConfigSource } from '../config/config-problem.js';

// ── Folders ──────────────────────────────────────────────────────────────────────────────────────────────────

/** The XDG base folders and scratchpad's own folders under them. */
export { configHome, dataHome, scratchpadConfigDir, scratchpadDataDir } from '../core/xdg.js';

// ── Stores ───────────────────────────────────────────────────────────────────────────────────────────────────

/** A store URL (`sqlite:PATH`, `fs:DIR`, `postgres://…`, `memory:`) parsed, and the local files it names. */
export { localStorePaths, parseStoreUrl, type StoreLocation } from '../stores/parse-store-url.js';
/** A small SQLite file of a package's own state, opened with the store's pragmas and error model. */
export { StateDatabase } from '../stores/sqlite/state-database.js';
/** The SQLite connection {@link StateDatabase} runs on (node:sqlite or @photostructure/sqlite). */
export type { SqliteDatabase } from '../stores/sqlite/sqlite-database.js';

// ── Words and numbers ────────────────────────────────────────────────────────────────────────────────────────

/** Shortens every string in a JSON value past a length, saying how much was cut. */
export { clipStrings } from '../core/clip-strings.js';
/** Counts and byte sizes as the CLI prints them. */
export { formatBytes, formatCount } from '../core/format.js';
