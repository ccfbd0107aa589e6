import { randomUUID } from 'node:crypto';
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import { createAllowedHosts } from '../../http/allowed-hosts.js';
import { assertSafeBind } from '../../http/bind-policy.js';
import { browsableHosts } from '../../http/browsable-hosts.js';
import { type HttpAddress, parseHttpAddress } from '../../http/http-address.js';
import { listen } from '../../http/listen.js';
import { readRequestBody } from '../../http/request-body.js';
import { createRequestGuard } from '../../http/request-guard.js';
import type { ToolListWatch } from '../tool-list-watch.js';
import {
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_REQUEST_BYTES,
  requestTooLargeError,
} from '../transport/message-limits.js';
import { ReplyLimitedTransport } from '../transport/reply-limited-transport.js';
import { createModernHttpRoute } from './modern-http-route.js';

/** Options for {@link serveHttp}. */
export interface ServeHttpOptions {
  /** Builds the MCP server for one client session (called once per `initialize`). */
  createServer: () => Server;
  /**
   * Builds the v2 SDK server for one 2026-07-28 request; without it the endpoint speaks 2025-11-25 only, and
   * answers a 2026-07-28 client as a 2025-era server does (which makes a negotiating client fall back).
   */
  createModernServer?: () => ModernServer;
  /**
   * With `createModernServer`: what changes the tool list (for `scratchpad mcp`, the session's first entry). Its
   * changes reach 2026-07-28 clients listening through `subscriptions/listen`; the watch runs only while one is.
   * Without it the modern server must declare `tools.listChanged: false`.
   */
  watchToolList?: ToolListWatch;
  /** `HOST:PORT` or a parsed address; port 0 picks a free port. */
  address: string | HttpAddress;
  /** Bearer token every request must carry; required unless the address is loopback. */
  token?: string;
  /** Host names to accept next to the defaults (localhost, 127.0.0.1, [::1], the bound address or interfaces). */
  allowedHosts?: readonly string[];
  /** Largest request body (default 16 MiB). */
  maxRequestBytes?: number;
  /** Largest reply (default 8 MiB). */
  maxReplyBytes?: number;
  /** Most open MCP sessions; past it the least recently used one is closed (default 1,000). */
  maxSessions?: number;
  /** A session unused this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
  /**
   * How a request is answered: `stream` (default), on an SSE stream that also carries what a handler sends while it
   * runs (progress, log messages, sampling and elicitation requests: the proxy forwards all of them); or `json`, one
   * JSON body, about twice the calls per second, for a server whose handlers send nothing while they run (its
   * notifications then travel on the session's GET stream only).
   */
  replies?: 'stream' | 'json';
  log?: (message: string) => void;
}

/** A running Streamable HTTP endpoint. */
export interface McpHttpServer {
  /** `http://HOST:PORT/mcp` a client can connect to (for a wildcard bind, the loopback one: the first of `urls`). */
  url: string;
  /** Every such URL: for a wildcard bind (`0.0.0.0`, `::`), loopback first, then this machine's interfaces. */
  urls: string[];
  port: number;
  http: HttpServer;
  /** Open MCP sessions. */
  readonly sessions: number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

/**
 * Serves MCP over Streamable HTTP at `http://HOST:PORT/mcp`, guarded by the shared HTTP rules (`src/http`): a
 * non-loopback bind needs a token; Host and Origin must be allowed (403), the bearer token must match (401),
 * methods GET/POST/DELETE (405), JSON bodies (415) up to the request limit (413 with a JSON-RPC error that says
 * what to do). 2026-07-28 requests (with `createModernServer`) are answered statelessly by the v2 SDK; each
 * 2025-11-25 client gets its own MCP session (`initialize` first, then `Mcp-Session-Id`), so notifications
 * such as `tools/list_changed` reach it; sessions are bounded in number and idle time.
 */
export async function serveHttp(options: ServeHttpOptions): Promise<McpHttpServer> {
  const address = typeof options.address === 'string' ? parseHttpAddress(options.address) : options.address;
  assertSafeBind(address.host, options.token);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const maxSessions = options.maxSessions ?? 1000;
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
  const guard = createRequestGuard({
    allowedHosts: createAllowedHosts(address.host, options.allowedHosts),
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  const sessions = new Map<string, Session>();
  const modern = options.createModernServer
    ? createModernHttpRoute({
        createServer: options.createModernServer,
        maxRequestBytes,
        maxReplyBytes,
        log,
        ...(options.watchToolList ? { watchToolList: options.watchToolList } : {}),
      })
    : undefined;

  const closeSession = (id: string): void => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    void session.transport.close().catch(() => undefined);
    void session.server.close().catch(() => undefined);
  };

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    if (sessions.size >= maxSessions) {
      const oldest = [...sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      if (oldest) closeSession(oldest[0]);
    }
    const server = options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: options.replies === 'json',
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastUsed: Date.now() });
      },
      onsessionclosed: (id) => closeSession(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) closeSession(transport.sessionId);
    };
    await server.connect(new ReplyLimitedTransport(transport, maxReplyBytes));
    return transport;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp') return reply(response, 404, 'Not found: the MCP endpoint is /mcp.');
    const rejection = guard(request);
    if (rejection) return reply(response, rejection.status, rejection.message, rejection.headers);
    let body: unknown;
    let bytes: Buffer = Buffer.alloc(0);
    if (request.method === 'POST') {
      const read = await readRequestBody(request, { maxBytes: maxRequestBytes });
      if (read.tooLarge) {
        const error = requestTooLargeError(read.receivedBytes, maxRequestBytes, undefined);
        return sendJson(response, 413, error);
      }
      bytes = read.bytes;
      try {
        body = JSON.parse(read.bytes.toString('utf8'));
      } catch {
        return reply(response, 400, 'Parse error: the body is not JSON.', undefined, ErrorCode.ParseError);
      }
    }
    if (modern && (await modern.claims(request, bytes, body)))
      return modern.serve(request, response, bytes, body);
    const sessionId = request.headers['mcp-session-id'];
    let transport: StreamableHTTPServerTransport | undefined;
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session)
        return reply(response, 404, 'Session not found: initialize a new session.', undefined, -32001);
      session.lastUsed = Date.now();
      transport = session.transport;
    } else if (request.method === 'POST' && isInitializeRequest(body)) {
      transport = await openSession();
    } else {
      return reply(
        response,
        400,
        'Bad Request: send an initialize request first, then the Mcp-Session-Id header it returns.',
      );
    }
    await transport.handleRequest(request, response, body);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(
        `scratchpad: HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (!response.headersSent) reply(response, 500, 'Internal error; the server is still running.');
      else response.end();
    });
  });
  http.on('clientError', (_error, socket) => socket.destroy());
  const port = await listen(http, address);
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (now - session.lastUsed > sessionIdleMs) closeSession(id);
    },
    Math.min(sessionIdleMs, 60_000),
  );
  sweep.unref();
  const urls = browsableHosts(address.host).map((host) => `http://${host}:${port}/mcp`);
  return {
    url: urls[0] as string,
    urls,
    port,
    http,
    get sessions() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweep);
      await modern?.close();
      for (const id of [...sessions.keys()]) closeSession(id);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function reply(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code: number = -32000,
): void {
  sendJson(response, status, { jsonrpc: '2.0', error: { code, message } }, headers);
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
