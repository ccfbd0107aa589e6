import { createServer, type Server as HttpServer } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ScratchpadError } from '../core/errors.js';

/** Serves `server` over stdio until the client disconnects. */
export async function serveStdio(server: Server): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
}

/**
 * Serves MCP over Streamable HTTP at `http://HOST:PORT/mcp` (stateless: a fresh server per request, built by
 * `createServerForRequest`). Resolves with the listening HTTP server.
 */
export async function serveHttp(createServerForRequest: () => Server, address: string): Promise<HttpServer> {
  const match = /^(.+):(\d+)$/.exec(address);
  if (!match) {
    throw new ScratchpadError('INVALID_ARGUMENT', `Invalid --http address ${JSON.stringify(address)}.`, {
      hint: 'Use HOST:PORT, e.g. 127.0.0.1:8765.',
    });
  }
  const host = (match[1] as string).replace(/^\[(.*)\]$/, '$1');
  const port = Number(match[2]);
  const http = createServer(async (request, response) => {
    if (!request.url?.startsWith('/mcp')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the MCP endpoint is /mcp\n');
      return;
    }
    const server = createServerForRequest();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request, response);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`MCP request failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error) =>
      reject(
        new ScratchpadError('INVALID_ARGUMENT', `Cannot listen on ${address}: ${error.message}`, {
          hint: 'Pick a free port.',
          cause: error,
        }),
      ),
    );
    http.listen(port, host, () => resolve());
  });
  return http;
}
