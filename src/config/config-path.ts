import { join } from 'node:path';
import { configHome } from '../core/xdg.js';

/** Environment variables as read by the runtime (a subset of `process.env`). */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Where the runtime's config file lives: `$SCRATCHPAD_CONFIG` when set, else
 * `$XDG_CONFIG_HOME/scratchpad/config.toml`, else `~/.config/scratchpad/config.toml`.
 */
export function configFilePath(env: Environment = process.env): string {
  const explicit = env.SCRATCHPAD_CONFIG;
  if (explicit) return explicit;
  return join(configHome(env), 'scratchpad', 'config.toml');
}
