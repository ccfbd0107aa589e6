/**
 * A remote MCP server on loopback for the proxy's `--url` tests, built with the official SDK: `remote_logs` (a big
 * log) and `remote_ping` (a small answer), over Streamable HTTP or the old HTTP+SSE transport, behind a bearer token.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** The big log `remote_logs` answers: 4,000 lines, one `ERROR` at line 3,101. */
export const LOG = Array.from({ length: 4000 }, (_, index) =>
  index === 3100 ? 'ERROR remote shard 7 lost quorum' : `INFO remote offset ${index} committed`,
).join('\n');

/** The tools of the remote upstream: a big log, a small answer. */
function upstreamServer(): McpServer {
  const server = new McpServer({ name: 'remote-upstream', version: '1.0.0' });
  server.registerTool(
    'remote_logs',
    { description: 'Remote logs', inputSchema: { shard: z.string() } },
    async () => ({
      content: [{ type: 'text', text: LOG }],
    }),
  );
  server.registerTool('remote_ping', { description: 'Answer pong', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'remote pong' }],
  }));
  return server;
}

export interface RemoteUpstream {
  url: string;
  /** Authorization headers received, in order. */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

/**
 * A remote MCP server on loopback: Streamable HTTP with sessions at /mcp, or only the old HTTP+SSE transport at
 * /sse (a POST there is 405, as such servers answer); a bearer token is required when `token` is set.
 */
export async function startRemote(
  mode: 'streamable' | 'sse',
  token: string | undefined,
  port = 0,
): Promise<RemoteUpstream> {
  const authorizations: Array<string | undefined> = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sse = new Map<string, SSEServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    authorizations.push(request.headers.authorization);
    if (token && request.headers.authorization !== `Bearer ${token}`) {
      response.writeHead(401, { 'www-authenticate': 'Bearer realm="remote"' }).end('unauthorized');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (mode === 'sse') {
      if (url.pathname === '/sse' && request.method === 'GET') {
        const transport = new SSEServerTransport('/messages', response);
        sse.set(transport.sessionId, transport);
        await upstreamServer().connect(transport);
      } else if (url.pathname === '/messages' && request.method === 'POST') {
        const transport = sse.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) response.writeHead(404).end('no session');
        else await transport.handlePostMessage(request, response);
      } else response.writeHead(405).end('method not allowed');
      return;
    }
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      if (typeof id === 'string') {
        response.writeHead(404).end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32001, message: 'Session not found' },
            id: null,
          }),
        );
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
      });
      transport = created;
      await upstreamServer().connect(created);
    }
    await transport.handleRequest(request, response);
  };
  const http: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.headersSent || response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const bound = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    authorizations,
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
