import { readFile } from 'node:fs/promises';
import { configFilePath, type Environment } from 'llm-scratchpad/extension';
import { configReadError } from 'llm-scratchpad/extension';
import { parseRuntimeConfig } from './parse-runtime-config.js';
import { defaultRuntimeConfig, type RuntimeConfig } from './runtime-config.js';

/** Options of {@link loadRuntimeConfig}. */
export interface LoadRuntimeConfigOptions {
  /** The file to read; it must exist. Default: `$SCRATCHPAD_CONFIG` (must exist too), else the XDG path. */
  path?: string;
  /** Where the path variables are read from (default `process.env`). */
  env?: Environment;
}

/**
 * Reads the runtime's configuration. With no file at the default path the defaults apply (a fast tier on local
 * Ollama), never an error; a file named explicitly must exist. A file that cannot be read or parsed is a
 * `CONFIG_INVALID` naming it.
 */
export async function loadRuntimeConfig(options: LoadRuntimeConfigOptions = {}): Promise<RuntimeConfig> {
  const env = options.env ?? process.env;
  const explicit = options.path ?? (env.SCRATCHPAD_CONFIG || undefined);
  const path = explicit ?? configFilePath(env);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const failure = configReadError(path, error, explicit !== undefined);
    if (failure === undefined) return defaultRuntimeConfig();
    throw failure;
  }
  return parseRuntimeConfig(text, path);
}
