import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import type { OffloadPolicyOptions } from '../../context/offload/index.js';
import type { Scratchpad } from '../../service/scratchpad.js';
import type { Preset } from '../../tools/preset.js';
import type { ToolListWatch } from '../tool-list-watch.js';
import type { Upstream } from './upstream-endpoint.js';

/** Options for `startMcpProxy` (`mcp-proxy.ts`). */
export interface McpProxyOptions {
  scratchpad: Scratchpad;
  /** The one session the proxy stores results in and serves. */
  session: string;
  /** The scratchpad tools served next to the upstream's (their read tool reads the offloaded results). */
  preset: Preset;
  /**
   * The upstream MCP server: a command started as a child process speaking stdio (`{command, args, env?, cwd?}`),
   * or a remote server by URL (`{url, headers?}`: Streamable HTTP, or HTTP+SSE where the server only speaks that).
   */
  upstream: Upstream;
  /** The offload policy (threshold, format, previews) applied to upstream results. */
  policy?: OffloadPolicyOptions;
  /** The reply limit of the transport (default 8 MiB). */
  maxReplyBytes?: number;
  /** Largest size the `{{scratchpad:NAME}}` references of one call may expand to (default: the reply limit). */
  maxReferenceBytes?: number;
  /** Backoff between upstream restarts (default 250 ms doubling to 10 s). */
  backoff?: { initialMs?: number; maxMs?: number };
  /** How long one forwarded request may take without progress (default 10 minutes). */
  requestTimeoutMs?: number;
  log?: (message: string) => void;
}

/** A running proxy: the MCP servers to connect clients to, and how to stop the upstream. */
export interface McpProxy {
  /** A v1 SDK server for one 2025-11-25 client, made on first use (the one `createServer` would make). */
  readonly server: Server;
  /** A v1 SDK server for one more 2025-11-25 client (an HTTP session), sharing the upstream, the session and its entries. */
  createServer(): Server;
  /**
   * A v2 SDK server of either era, for `serveStdioEras` (one per stdio connection, of the era its opening
   * message picks) and for the 2026-07-28 leg of the HTTP endpoint (`modern`, one per request). Same handlers.
   * `toolListWatched`: the serving entry feeds {@link watchToolList} to 2026-07-28 listeners (then a 2026 server
   * claims `tools.listChanged` where the proxy hears the upstream's changes).
   */
  createModernServer(era: 'legacy' | 'modern', options?: { toolListWatched?: boolean }): ModernServer;
  /** Watches the proxy's tool list: `watchToolList` for `serveStdioEras` and `serveHttp`. */
  readonly watchToolList: ToolListWatch;
  /** Names of the upstream tools served. */
  readonly tools: string[];
  close(): Promise<void>;
}
