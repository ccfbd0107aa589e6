import { ScratchpadError } from '../core/errors.js';

/** Which backend a store URL names, and where. */
export type StoreLocation =
  | { kind: 'memory' }
  | { kind: 'postgres'; connectionString: string }
  | { kind: 'fs'; root: string }
  | { kind: 'sqlite'; path: string };

/**
 * Reads a store URL: `sqlite:PATH` (or a bare path), `fs:DIR`, `postgres://…`, `memory:`. Throws
 * `INVALID_ARGUMENT` for anything else.
 */
export function parseStoreUrl(url: string): StoreLocation {
  if (url === 'memory:' || url === 'memory') return { kind: 'memory' };
  if (url.startsWith('postgres://') || url.startsWith('postgresql://'))
    return { kind: 'postgres', connectionString: url };
  if (url.startsWith('fs:')) {
    const root = url.slice(3);
    if (root.length === 0) throw invalidUrl(url);
    return { kind: 'fs', root };
  }
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  if (path.length === 0 || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) throw invalidUrl(url);
  return { kind: 'sqlite', path };
}

/**
 * The files and folders a local store keeps its data in (SQLite: the database, its journal files and side-file
 * folder; fs: its root), or none for a server or memory store.
 */
export function localStorePaths(location: StoreLocation): string[] {
  if (location.kind === 'fs') return [location.root];
  if (location.kind !== 'sqlite' || location.path === ':memory:') return [];
  const path = location.path;
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`, `${path}.blobs`];
}

function invalidUrl(url: string): ScratchpadError {
  return new ScratchpadError('INVALID_ARGUMENT', `Unknown store ${JSON.stringify(url)}.`, {
    hint: 'Use sqlite:PATH, fs:DIR, postgres://USER@HOST/DB or memory:.',
  });
}
