/**
 * `llm-scratchpad/mcp`: the MCP server (one session's tools and entry resources, over stdio or HTTP) and the MCP
 * proxy that adds offloading to any MCP server.
 */
// The declarations use Node's types (Buffer, streams): a user's type-check loads them from @types/node, which
// TypeScript 6 includes only when a file or the `types` option asks for it.
/// <reference types="node" preserve="true" />
// biome-ignore-all assist/source/organizeImports: one export per statement, each with its TSDoc, in reading order

/** Creates an MCP server serving one session: a tool preset plus the session's entries as resources. */
export { createMcpServer } from './mcp-server.js';
export type { McpServerOptions } from './served-session.js';
/** Serves a server over stdio, with request and reply size limits. */
export { serveStdio } from './serve-stdio.js';
/** Serves MCP over Streamable HTTP behind the local HTTP guards (bind policy, bearer token, Host/Origin). */
export { type McpHttpServer, type ServeHttpOptions, serveHttp } from './http/serve-http.js';
/** The error codes the MCP layer owns (docs/errors.md): `UPSTREAM_UNAVAILABLE`. */
export type { McpErrorCode } from './mcp-errors.js';
/** Starts the proxy: an upstream MCP server's tools, with large results offloaded to the scratchpad. */
export { type McpProxy, type McpProxyOptions, startMcpProxy } from './proxy/mcp-proxy.js';
/** The stdio transport that frames input in linear time and answers oversized messages with errors. */
export { BoundedStdioServerTransport } from './transport/stdio-server-transport.js';
/** Default largest request (16 MiB) a server reads. */
export { DEFAULT_MAX_REQUEST_BYTES } from './transport/message-limits.js';
/** Default largest reply (8 MiB) a server sends. */
export { DEFAULT_MAX_REPLY_BYTES } from './transport/message-limits.js';
/** A session's entries as MCP resources (list, read with slices, completions), confined to that session. */
export { EntryResources } from './entry-resources.js';
/** The resource template of entries: `scratchpad://{session}/{name}`. */
export { ENTRY_URI_TEMPLATE } from './entry-uri.js';
/** The resource URI of an entry. */
export { entryUri } from './entry-uri.js';
/** The resource template of one session's entries. */
export { entryUriTemplate } from './entry-uri.js';
/** Parses an entry URI into its session, name and slice. */
export { parseEntryUri } from './entry-uri.js';
