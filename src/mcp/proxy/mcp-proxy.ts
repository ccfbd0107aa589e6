import type { McpProxy, McpProxyOptions } from './proxy-options.js';
import { ScratchpadProxy } from './scratchpad-proxy.js';

export type { McpProxy, McpProxyOptions } from './proxy-options.js';

/**
 * An MCP proxy that adds the scratchpad to any MCP server (started over stdio, or remote by URL). It forwards everything it does not change:
 * tools with their title, annotations, icons, output schema and `_meta` (plus the optional `scratchpad`
 * parameter), resources, templates, prompts, completions, logging, subscriptions, list-changed notifications,
 * progress and cancellation. Large results are stored in the session and replaced by a preview (see
 * {@link forwardToolResult}); the scratchpad's own tools and entries (`scratchpad://SESSION/NAME`) are served next
 * to the upstream's. An upstream that exits is restarted on the next call.
 */
export async function startMcpProxy(options: McpProxyOptions): Promise<McpProxy> {
  return ScratchpadProxy.start(options);
}
