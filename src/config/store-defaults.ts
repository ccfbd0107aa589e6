import { readFileSync } from 'node:fs';
import { isValidName, NAME_RULE } from '../core/names.js';
import { MAX_TTL_SECONDS, TTL_SECONDS_RANGE } from '../core/ttl.js';
import { configFilePath, type Environment } from './config-path.js';
import { configReadError } from './config-read-error.js';
import { parseToml } from './parse-toml.js';
import { readSection } from './section-reader.js';

/**
 * The `[store]` table of `config.toml`: defaults for the store the CLI opens (and so for `mcp`, `proxy` and `ui`).
 * A flag wins over its environment variable, which wins over these.
 */
export interface StoreDefaults {
  /** `session`: the session when neither `--session` nor `SCRATCHPAD_SESSION` names one. */
  session?: string;
  /** `default_ttl_seconds`: the TTL of a write that gives none (`--ttl` wins), whole seconds up to 100 years. */
  defaultTtlSeconds?: number;
  /** `max_store_bytes`: the store's size cap (see the README's caps). */
  maxStoreBytes?: number;
  /** `max_session_bytes`: each session's size cap. */
  maxSessionBytes?: number;
}

const STORE_KEYS = ['session', 'default_ttl_seconds', 'max_store_bytes', 'max_session_bytes'];

/** Reads `[store]` out of a config file's text; a bad value is a `CONFIG_INVALID` naming the file, line and key. */
function parseStoreDefaults(text: string, path: string): StoreDefaults {
  const raw = parseToml(text, path);
  const store = readSection(raw.store, ['store'], STORE_KEYS, { text, path });
  const defaults: StoreDefaults = {};
  const session = store.table.session;
  if (session !== undefined) {
    if (!isValidName(session)) {
      throw store.problem('session', `session must be a session id: ${NAME_RULE}`, 'Write session = "work".');
    }
    defaults.session = session;
  }
  const ttl = store.integer('default_ttl_seconds');
  if (ttl !== undefined) {
    if (ttl > MAX_TTL_SECONDS) {
      throw store.problem(
        'default_ttl_seconds',
        `default_ttl_seconds must be ${TTL_SECONDS_RANGE}`,
        'Write default_ttl_seconds = 86400 for a day, or leave it out to keep entries until deleted.',
      );
    }
    defaults.defaultTtlSeconds = ttl;
  }
  const maxStoreBytes = store.integer('max_store_bytes');
  if (maxStoreBytes !== undefined) defaults.maxStoreBytes = maxStoreBytes;
  const maxSessionBytes = store.integer('max_session_bytes');
  if (maxSessionBytes !== undefined) defaults.maxSessionBytes = maxSessionBytes;
  return defaults;
}

/**
 * The `[store]` defaults of the config file (`$SCRATCHPAD_CONFIG`, which must exist, else the XDG path, which may
 * not: then there are none). Synchronous: the CLI resolves its global options before any command runs.
 */
export function loadStoreDefaults(env: Environment = process.env): StoreDefaults {
  const explicit = env.SCRATCHPAD_CONFIG || undefined;
  const path = explicit ?? configFilePath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const failure = configReadError(path, error, explicit !== undefined);
    if (failure === undefined) return {};
    throw failure;
  }
  return parseStoreDefaults(text, path);
}
