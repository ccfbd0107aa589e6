import { homedir } from 'node:os';
import { join } from 'node:path';
import { ScratchpadError } from '../core/errors.js';
import type { StoreDriver } from './driver.js';

/** Where the default SQLite file lives: `$XDG_DATA_HOME/scratchpad/scratchpad.db`. */
export function defaultDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataHome(env), 'scratchpad', 'scratchpad.db');
}

/** `$XDG_DATA_HOME`, or `~/.local/share`. */
export function dataHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.XDG_DATA_HOME;
  return configured && configured.length > 0 ? configured : join(homedir(), '.local', 'share');
}

/** `$XDG_CONFIG_HOME`, or `~/.config`. */
export function configHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.XDG_CONFIG_HOME;
  return configured && configured.length > 0 ? configured : join(homedir(), '.config');
}

/**
 * Opens a driver from a store URL: `sqlite:PATH` (or a bare path), `fs:DIR`, `postgres://…`, `memory:`.
 * Backends are imported on demand, so using one never loads another (nor `pg` unless asked for).
 */
export async function openStore(
  url: string | undefined,
  options: { now?: () => number } = {},
): Promise<StoreDriver> {
  const target = url && url.length > 0 ? url : `sqlite:${defaultDatabasePath()}`;
  if (target === 'memory:' || target === 'memory') {
    const { createMemoryDriver } = await import('./memory/index.js');
    return createMemoryDriver(options);
  }
  if (target.startsWith('postgres://') || target.startsWith('postgresql://')) {
    const { createPostgresDriver } = await import('./postgres/index.js');
    return createPostgresDriver({ connectionString: target, ...options });
  }
  if (target.startsWith('fs:')) {
    const root = target.slice(3);
    if (root.length === 0) throw invalidUrl(target);
    const { createFsDriver } = await import('./fs/index.js');
    return createFsDriver({ root, ...options });
  }
  const path = target.startsWith('sqlite:') ? target.slice('sqlite:'.length) : target;
  if (path.length === 0 || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) throw invalidUrl(target);
  const { createSqliteDriver } = await import('./sqlite/index.js');
  return createSqliteDriver({ path, ...options });
}

function invalidUrl(url: string): ScratchpadError {
  return new ScratchpadError('INVALID_ARGUMENT', `Unknown store ${JSON.stringify(url)}.`, {
    hint: 'Use sqlite:PATH, fs:DIR, postgres://USER@HOST/DB or memory:.',
  });
}
