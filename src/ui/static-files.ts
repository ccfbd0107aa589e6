import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMON_HEADERS } from './json-reply.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** The app's own origin only: no inline script, no CDN, no framing. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Where the built web app is: `dist/web` next to this module's folder (`dist/ui`), or, when running from the
 * sources (tests), the package's `dist/web`.
 */
export function defaultStaticDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const beside = join(here, '..', 'web');
  return existsSync(join(beside, 'index.html')) ? beside : join(here, '..', '..', 'dist', 'web');
}

/**
 * Serves a file of the built app from `root`: `/` and any path without an extension get `index.html` (the app
 * routes in the URL fragment), `/assets/*` their file. Paths are normalized and must stay inside `root`.
 */
export async function serveStatic(root: string, path: string, response: ServerResponse): Promise<void> {
  const relative = path === '/' || extname(path) === '' ? 'index.html' : path.slice(1);
  const file = normalize(join(root, relative));
  const type = TYPES[extname(file)];
  if (!file.startsWith(normalize(root) + sep) || type === undefined) return notFound(response);
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return notFound(response, relative === 'index.html');
  }
  response
    .writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': type,
      'content-length': String(body.length),
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-frame-options': 'DENY',
      // Hashed asset names never change content; the page itself is always fetched fresh.
      'cache-control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-store',
    })
    .end(body);
}

function notFound(response: ServerResponse, appMissing = false): void {
  const message = appMissing
    ? 'The web app is not built: run npm run build (it writes dist/web).'
    : 'Not found.';
  response.writeHead(404, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end(message);
}
