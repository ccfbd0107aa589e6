export { ENTRY_URI_TEMPLATE, entryUri, parseEntryUri } from './entry-uri.js';
export { type McpProxy, type McpProxyOptions, startMcpProxy } from './mcp-proxy.js';
export { createMcpServer, type McpServerOptions } from './mcp-server.js';
export { serveHttp, serveStdio } from './serve.js';
