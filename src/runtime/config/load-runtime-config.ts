import { readFile } from 'node:fs/promises';
import { ScratchpadError } from '../../core/errors.js';
import { configFilePath, type Environment } from './config-path.js';
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
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && explicit === undefined) return defaultRuntimeConfig();
    throw new ScratchpadError(
      'CONFIG_INVALID',
      code === 'ENOENT'
        ? `Config file ${path} does not exist.`
        : `Cannot read config file ${path} (${code ?? (error as Error).message}).`,
      {
        hint:
          code === 'ENOENT'
            ? 'Create it, fix the path (SCRATCHPAD_CONFIG or the path you passed), or unset it to use the defaults.'
            : 'Check the file permissions, or point SCRATCHPAD_CONFIG to another file.',
        details: { path, code },
        cause: error,
      },
    );
  }
  return parseRuntimeConfig(text, path);
}
