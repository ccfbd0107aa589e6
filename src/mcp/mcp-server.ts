import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { registerOnLegacy } from './request-handlers.js';
import { announceToolListChanges, type McpServerOptions, serveSession } from './served-session.js';
import { sessionHandlers } from './session-handlers.js';

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

  registerOnLegacy(server, sessionHandlers({ tools, resources }));
  if (tools.dynamic) announceToolListChanges(server, presence);
  return server;
}
