import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isValidName, NAME_RULE } from '../core/names.js';
import { MAX_TTL_SECONDS, TTL_SECONDS_RANGE } from '../core/ttl.js';
import { configField } from './config-field.js';
import { configFilePath, type Environment } from './config-path.js';
import { configReadError } from './config-read-error.js';
import { parseConfigSection } from './parse-config-section.js';
import { parseToml } from './parse-toml.js';

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

const STORE_SCHEMA = z.strictObject({
  session: configField.custom(
    z.string().refine(isValidName, {
      message: `a session id: ${NAME_RULE}`,
      params: { hint: 'Write session = "work".' },
    }),
    { expected: `a session id: ${NAME_RULE}`, example: '"work"' },
  ),
  default_ttl_seconds: configField.custom(
    z
      .int()
      .min(1)
      .refine((seconds) => seconds <= MAX_TTL_SECONDS, {
        message: TTL_SECONDS_RANGE,
        params: {
          hint: 'Write default_ttl_seconds = 86400 for a day, or leave it out to keep entries until deleted.',
        },
      }),
    { expected: 'a whole number, 1 or more', example: '86400 (no quotes)' },
  ),
  max_store_bytes: configField.integer(),
  max_session_bytes: configField.integer(),
});

/** Reads `[store]` out of a config file's text; a bad value is a `CONFIG_INVALID` naming the file, line and key. */
function parseStoreDefaults(text: string, path: string): StoreDefaults {
  const raw = parseToml(text, path);
  const store = parseConfigSection(STORE_SCHEMA, raw.store, ['store'], { text, path });
  const defaults: StoreDefaults = {};
  if (store.session !== undefined) defaults.session = store.session;
  if (store.default_ttl_seconds !== undefined) defaults.defaultTtlSeconds = store.default_ttl_seconds;
  if (store.max_store_bytes !== undefined) defaults.maxStoreBytes = store.max_store_bytes;
  if (store.max_session_bytes !== undefined) defaults.maxSessionBytes = store.max_session_bytes;
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
