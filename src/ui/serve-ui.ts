import { randomBytes } from 'node:crypto';
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { ScratchpadError } from '../core/errors.js';
import { createAllowedHosts } from '../http/allowed-hosts.js';
import { browsableHosts } from '../http/browsable-hosts.js';
import { type HttpAddress, parseHttpAddress } from '../http/http-address.js';
import { listen } from '../http/listen.js';
import { isLoopbackHost } from '../http/loopback.js';
import { readRequestBody } from '../http/request-body.js';
import { createRequestGuard, type Rejection } from '../http/request-guard.js';
import type { Scratchpad } from '../service/scratchpad.js';
import { type ApiReply, type ApiRoute, matchRoute } from './api-route.js';
import { entryRoutes } from './entry-routes.js';
import { COMMON_HEADERS, sendError, sendFailure, sendJson } from './json-reply.js';
import { liveRoutes } from './live-routes.js';
import { QueryParams } from './query-params.js';
import { sessionRoutes } from './session-routes.js';
import { defaultStaticDir, serveStatic } from './static-files.js';
import { TurnIndex } from './turn-index.js';
import { turnRoutes } from './turn-routes.js';

/** Largest request body the API reads (pin and delete bodies are a few bytes). */
const MAX_UI_REQUEST_BYTES = 16 * 1024;

/** Options for {@link serveUi}. */
export interface ServeUiOptions {
  scratchpad: Scratchpad;
  /** The turn log directory (`YYYY-MM-DD.jsonl` files); it may not exist yet. */
  turnLogDir: string;
  /** `HOST:PORT` or a parsed address; port 0 picks a free port. Loopback by default in the CLI. */
  address: string | HttpAddress;
  /**
   * Bearer token the API requires. When omitted: none on a loopback address; on any other address a random
   * token is made for this run and put in the printed URL.
   */
  token?: string;
  /** Host names to accept next to the defaults (localhost, 127.0.0.1, [::1], the bound address or interfaces). */
  allowedHosts?: readonly string[];
  /** The built web app (default: `dist/web` of this package). */
  staticDir?: string;
  log?: (message: string) => void;
}

/** A running inspector. */
export interface UiServer {
  /** The URL to open: `http://HOST:PORT/`, with `#token=…` when a token is required (the first of `urls`). */
  url: string;
  /**
   * Every URL a browser can open: for a wildcard bind (`0.0.0.0`, `::`) loopback first, then this machine's
   * interface addresses ({@link browsableHosts}); otherwise the bound host alone.
   */
  urls: string[];
  port: number;
  /** The token the API requires, if any. */
  token: string | undefined;
  http: HttpServer;
  close(): Promise<void>;
}

/**
 * Serves the inspector: the web app's static files and the JSON API under `/api/` (docs/http-api.md), both behind
 * the shared HTTP rules of `src/http` (Host and Origin allow-list: 403; methods: 405; JSON bodies: 415). The API
 * also needs the bearer token when there is one (401); the static files carry no data and need none, so the page
 * can load and read the token from the URL fragment, which browsers never send to the server.
 */
export async function serveUi(options: ServeUiOptions): Promise<UiServer> {
  const address = typeof options.address === 'string' ? parseHttpAddress(options.address) : options.address;
  const token = options.token ?? (isLoopbackHost(address.host) ? undefined : randomBytes(24).toString('hex'));
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const staticDir = options.staticDir ?? defaultStaticDir();
  const allowedHosts = createAllowedHosts(address.host, options.allowedHosts);
  const apiGuard = createRequestGuard({
    allowedHosts,
    methods: ['GET', 'POST', 'DELETE'],
    jsonMethods: ['POST', 'DELETE'],
    ...(token === undefined ? {} : { token }),
  });
  const staticGuard = createRequestGuard({ allowedHosts, methods: ['GET', 'HEAD'], jsonMethods: [] });
  const index = new TurnIndex(options.turnLogDir);
  const routes: ApiRoute[] = [
    ...sessionRoutes(options.scratchpad),
    ...entryRoutes(options.scratchpad),
    ...turnRoutes(index, options.scratchpad),
    ...liveRoutes(options.scratchpad, index),
  ];

  const handleApi = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    const rejection = apiGuard(request);
    if (rejection) return reject(response, rejection);
    const matching = routes.flatMap((route) => {
      const params = matchRoute(route.pattern, url.pathname);
      return params ? [{ route, params }] : [];
    });
    if (matching.length === 0)
      return sendFailure(response, 404, 'NOT_FOUND', `No API route ${url.pathname}.`);
    const found = matching.find((item) => item.route.method === request.method);
    if (!found) {
      const allow = matching.map((item) => item.route.method).join(', ');
      return sendFailure(response, 405, 'METHOD_NOT_ALLOWED', `Use ${allow} here.`, { allow });
    }
    let body: unknown;
    if (request.method !== 'GET') {
      const read = await readRequestBody(request, { maxBytes: MAX_UI_REQUEST_BYTES });
      if (read.tooLarge) {
        return sendFailure(
          response,
          413,
          'REQUEST_TOO_LARGE',
          `The body is over ${MAX_UI_REQUEST_BYTES} bytes.`,
        );
      }
      try {
        body = JSON.parse(read.bytes.toString('utf8'));
      } catch {
        return sendFailure(response, 400, 'INVALID_JSON', 'The body is not JSON.');
      }
    }
    let reply: ApiReply;
    try {
      reply = await found.route.handle({
        params: found.params,
        query: new QueryParams(url.searchParams),
        body,
        headers: request.headers,
      });
    } catch (error) {
      if (ScratchpadError.isInstance(error)) return sendError(response, error);
      throw error;
    }
    if (reply.status === 304) {
      response.writeHead(304, { ...COMMON_HEADERS, ...reply.headers }).end();
      return;
    }
    sendJson(response, reply.status ?? 200, reply.body ?? {}, reply.headers);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/api/')) return handleApi(request, response, url);
    const rejection = staticGuard(request);
    if (rejection) return reject(response, rejection);
    await serveStatic(staticDir, url.pathname, response);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(
        `scratchpad ui: request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (!response.headersSent)
        sendFailure(response, 500, 'INTERNAL', 'Internal error; the server is still running.');
      else response.end();
    });
  });
  http.on('clientError', (_error, socket) => socket.destroy());
  const port = await listen(http, address);
  const urls = browsableHosts(address.host).map((host) => {
    const origin = `http://${host}:${port}/`;
    return token === undefined ? origin : `${origin}#token=${token}`;
  });
  return {
    url: urls[0] as string,
    urls,
    port,
    token,
    http,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const REJECTION_CODES: Record<Rejection['status'], string> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  405: 'METHOD_NOT_ALLOWED',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

function reject(response: ServerResponse, rejection: Rejection): void {
  sendFailure(
    response,
    rejection.status,
    REJECTION_CODES[rejection.status],
    rejection.message,
    rejection.headers,
  );
}
