/**
 * POSIX path normalization in linear time: `.` and empty segments dropped, `..` applied (never above `/`).
 * Node's `path.posix.normalize` is quadratic on thousands of `..` segments, which a hostile argument can supply.
 */
export function normalizePosixPath(path: string): string {
  const absolute = path.startsWith('/');
  const stack: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (stack.length > 0 && stack[stack.length - 1] !== '..') stack.pop();
      else if (!absolute) stack.push('..');
      continue;
    }
    stack.push(segment);
  }
  const joined = stack.join('/');
  if (absolute) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

/** `path` resolved against `base` (absolute paths win), normalized. */
export function resolvePosixPath(base: string, path: string): string {
  return normalizePosixPath(path.startsWith('/') ? path : `${base}/${path}`);
}
