import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { announceToolListChanges, type McpServerOptions, serveSession } from './served-session.js';

/** The proxy's reply budget is the server's (`proxy/mcp-proxy.ts` imports it from here). */
export { replyContentBudget } from './served-session.js';

/**
 * An MCP server over one session of the scratchpad: the preset's tools (with their exact JSON Schemas; seed 000's
 * read tool appears with `notifications/tools/list_changed` once the session has an entry), and the session's
 * entries as resources with a template and name completion. Tool failures are results with `isError: true`; a
 * bug in a handler is reported as an error result instead of taking the server down.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { serverInfo, instructions, tools, resources, presence } = serveSession(options);
  const server = new Server(serverInfo, {
    capabilities: { tools: { listChanged: tools.dynamic }, resources: {}, completions: {} },
    ...(instructions ? { instructions } : {}),
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await tools.list() }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    tools.call(request.params.name, request.params.arguments ?? {}, extra.signal),
  );
  server.setRequestHandler(ListResourcesRequestSchema, (request) => resources.list(request.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => resources.templates());
  server.setRequestHandler(ReadResourceRequestSchema, (request) => resources.read(request.params.uri));
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const result = await resources.complete(request.params.ref, request.params.argument);
    return result ?? { completion: { values: [] } };
  });

  if (tools.dynamic) announceToolListChanges(server, presence);
  return server;
}
