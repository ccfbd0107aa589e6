// The floor of one extra MCP hop, for bench/proxy-http.js: the least a forwarder built on the official SDK does to
// put a Streamable HTTP server in front of a Streamable HTTP upstream. It lists and calls tools, and nothing else:
// one SDK client to the upstream, one SDK server session per client (SSE replies, as the SDK's default and as
// `scratchpad proxy --http` answer), no store, no previews, no guards.
//
//   node bench/lib/sdk-forwarder.js UPSTREAM_URL      prints "sdk forwarder at http://127.0.0.1:PORT/mcp" on stderr
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const upstreamUrl = process.argv[2];
if (!upstreamUrl) {
  process.stderr.write('usage: sdk-forwarder.js UPSTREAM_URL\n');
  process.exit(2);
}
const upstream = new Client({ name: 'bench-sdk-forwarder', version: '1.0.0' });
await upstream.connect(new StreamableHTTPClientTransport(new URL(upstreamUrl)));

function forwardingServer() {
  const server = new Server(
    { name: 'bench-sdk-forwarder', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params));
  return server;
}

const sessions = new Map();
const http = createServer(async (request, response) => {
  try {
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, created),
      });
      created.onclose = () => created.sessionId && sessions.delete(created.sessionId);
      transport = created;
      await forwardingServer().connect(created);
    }
    await transport.handleRequest(request, response);
  } catch (error) {
    if (!response.headersSent) response.writeHead(500).end(String(error));
  }
});
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
process.stderr.write(`sdk forwarder at http://127.0.0.1:${http.address().port}/mcp\n`);
