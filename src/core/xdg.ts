import { homedir } from 'node:os';
import { join } from 'node:path';

/** The environment variables the XDG lookups read (`process.env` by default; tests inject their own). */
export type XdgEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * The one XDG base-directory lookup for the store, the CLI and the runtime: `$XDG_DATA_HOME`, else
 * `$HOME/.local/share` (the account's home when `HOME` is unset or empty).
 */
export function dataHome(env: XdgEnvironment = process.env): string {
  return env.XDG_DATA_HOME || join(home(env), '.local', 'share');
}

/** `$XDG_CONFIG_HOME`, else `$HOME/.config` (the account's home when `HOME` is unset or empty). */
export function configHome(env: XdgEnvironment = process.env): string {
  return env.XDG_CONFIG_HOME || join(home(env), '.config');
}

function home(env: XdgEnvironment): string {
  return env.HOME || homedir();
}

/** `$XDG_DATA_HOME/scratchpad`, else `~/.local/share/scratchpad`: turn logs, installed executors, vaglio logs. */
export function scratchpadDataDir(env: XdgEnvironment = process.env): string {
  return join(dataHome(env), 'scratchpad');
}

/** `$XDG_CONFIG_HOME/scratchpad`, else `~/.config/scratchpad`: `config.toml` and signing keys. */
export function scratchpadConfigDir(env: XdgEnvironment = process.env): string {
  return join(configHome(env), 'scratchpad');
}
