export { EntryResources } from './entry-resources.js';
export { ENTRY_URI_TEMPLATE, entryUri, entryUriTemplate, parseEntryUri } from './entry-uri.js';
export { type McpHttpServer, type ServeHttpOptions, serveHttp } from './http/serve-http.js';
export { createMcpServer, type McpServerOptions } from './mcp-server.js';
export { type McpProxy, type McpProxyOptions, startMcpProxy } from './proxy/mcp-proxy.js';
export { serveStdio } from './serve-stdio.js';
export { DEFAULT_MAX_REPLY_BYTES, DEFAULT_MAX_REQUEST_BYTES } from './transport/message-limits.js';
export { BoundedStdioServerTransport } from './transport/stdio-server-transport.js';
