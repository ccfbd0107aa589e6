import { isAbsolute, relative } from 'node:path';

/** True when absolute path `inner` is `outer` or lies inside it (no symbolic link resolution). */
export function pathContains(outer: string, inner: string): boolean {
  const path = relative(outer, inner);
  return path === '' || (path !== '..' && !path.startsWith('../') && !isAbsolute(path));
}
