import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  BoundedStdioServerTransport,
  type BoundedStdioServerTransportOptions,
} from './transport/stdio-server-transport.js';

/**
 * Serves `server` over stdio until the client disconnects. Requests over `maxRequestBytes` and replies over
 * `maxReplyBytes` are refused with errors that name the limit; the server keeps serving.
 */
export async function serveStdio(
  server: Server,
  options: BoundedStdioServerTransportOptions = {},
): Promise<void> {
  const transport = new BoundedStdioServerTransport(options);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}
