import { join } from 'node:path';
import { configHome, dataHome } from '../../core/xdg.js';

/** Environment variables as read by the executor and vaglio modules (a subset of `process.env`). */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/** `$XDG_DATA_HOME/scratchpad`, else `~/.local/share/scratchpad`: installed executors, vaglio logs. */
export function scratchpadDataDir(env: EnvironmentVariables = process.env): string {
  return join(dataHome(env), 'scratchpad');
}

/** `$XDG_CONFIG_HOME/scratchpad`, else `~/.config/scratchpad`: configuration and signing keys. */
export function scratchpadConfigDir(env: EnvironmentVariables = process.env): string {
  return join(configHome(env), 'scratchpad');
}

/** Where signing keys live: `<config dir>/keys`. */
export function defaultKeyDir(env: EnvironmentVariables = process.env): string {
  return join(scratchpadConfigDir(env), 'keys');
}

/** Where shipped executors are installed and signed on first use: `<data dir>/executors`. */
export function defaultExecutorsDir(env: EnvironmentVariables = process.env): string {
  return join(scratchpadDataDir(env), 'executors');
}
