import type { Server as LegacyServer } from '@modelcontextprotocol/sdk/server/index.js';
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio as serveStdioBothEras } from '@modelcontextprotocol/server/stdio';
import type { ToolListWatch } from './tool-list-watch.js';
import {
  BoundedStdioServerTransport,
  type BoundedStdioServerTransportOptions,
} from './transport/stdio-server-transport.js';

/**
 * Serves both protocol eras over stdio until the client disconnects: the v2 SDK's `serveStdio` reads the opening
 * message (`initialize` pins the connection to 2025-11-25, `server/discover` or an enveloped request to
 * 2026-07-28) and asks `createServer` for a server of that era; with `createLegacyServer`, an `initialize`
 * opening goes to the v1 SDK server it makes instead. The transport is ours, so requests over
 * `maxRequestBytes` and replies over `maxReplyBytes` are refused with errors that name the limit, in both eras.
 * With `watchToolList`, a 2026-07-28 connection's server announces each change it reports, which the SDK delivers
 * on the connection's `subscriptions/listen` subscriptions that asked for tool-list changes; the watch stops when
 * the connection closes.
 */
export async function serveStdioEras(
  createServer: (era: 'legacy' | 'modern') => Server,
  options: BoundedStdioServerTransportOptions & { watchToolList?: ToolListWatch } = {},
  createLegacyServer?: () => LegacyServer,
): Promise<void> {
  const { watchToolList, ...transportOptions } = options;
  const transport = new BoundedStdioServerTransport(transportOptions);
  if (createLegacyServer) {
    // An `initialize` opening is served by the v1 SDK's server, as before the 2026 revision: the same handlers,
    // with less work per message than the v2 server's 2025 mode (the proxy's added cost per call).
    const first = await transport.firstMessage();
    if (first === undefined) return;
    if ('method' in first && first.method === 'initialize') {
      const closed = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
      });
      await createLegacyServer().connect(transport);
      await closed;
      return;
    }
  }
  const closed = new Promise<void>((resolve) => {
    // serveStdio sets the transport's onclose itself; the setter keeps its handler and also tells us.
    let handler: (() => void) | undefined;
    Object.defineProperty(transport, 'onclose', {
      configurable: true,
      get: () => () => {
        handler?.();
        resolve();
      },
      set: (value: (() => void) | undefined) => {
        handler = value;
      },
    });
  });
  const handle = serveStdioBothEras(
    (context) => {
      const server = createServer(context.era);
      if (context.era === 'modern' && watchToolList) announceWhileOpen(server, watchToolList);
      return server;
    },
    { transport },
  );
  await closed;
  await handle.close().catch(() => undefined);
}

/**
 * Sends `notifications/tools/list_changed` from `server` on each change `watch` reports, until the server closes
 * (the SDK closes a discarded `server/discover` probe's server too). The v2 SDK's stdio entry routes it onto the
 * open `subscriptions/listen` subscriptions that asked for tool-list changes, and drops it when there are none.
 */
function announceWhileOpen(server: Server, watch: ToolListWatch): void {
  const stop = watch(() => void server.sendToolListChanged().catch(() => undefined));
  const previous = server.onclose;
  server.onclose = () => {
    stop();
    previous?.();
  };
}
