import { join } from 'node:path';
import { configHome, dataHome } from '../core/xdg.js';
import type { StoreDriver } from './driver.js';
import { parseStoreUrl } from './parse-store-url.js';

export { configHome, dataHome };

/** Where the default SQLite file lives: `$XDG_DATA_HOME/scratchpad/scratchpad.db` (XDG lookup: `core/xdg.ts`). */
export function defaultDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataHome(env), 'scratchpad', 'scratchpad.db');
}

/**
 * Opens a driver from a store URL: `sqlite:PATH` (or a bare path), `fs:DIR`, `postgres://…`, `memory:`.
 * Backends are imported on demand, so using one never loads another (nor `pg` unless asked for).
 */
export async function openStore(
  url: string | undefined,
  options: { now?: () => number } = {},
): Promise<StoreDriver> {
  const location = parseStoreUrl(url && url.length > 0 ? url : `sqlite:${defaultDatabasePath()}`);
  if (location.kind === 'memory') {
    const { createMemoryDriver } = await import('./memory/index.js');
    return createMemoryDriver(options);
  }
  if (location.kind === 'postgres') {
    const { createPostgresDriver } = await import('./postgres/index.js');
    return createPostgresDriver({ connectionString: location.connectionString, ...options });
  }
  if (location.kind === 'fs') {
    const { createFsDriver } = await import('./fs/index.js');
    return createFsDriver({ root: location.root, ...options });
  }
  const { createSqliteDriver } = await import('./sqlite/index.js');
  return createSqliteDriver({ path: location.path, ...options });
}
