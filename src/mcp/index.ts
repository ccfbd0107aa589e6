export { ENTRY_URI_TEMPLATE, entryUri, parseEntryUri } from './entry-uri.js';
export { createMcpServer, type McpServerOptions } from './mcp-server.js';
export { serveHttp, serveStdio } from './serve.js';
