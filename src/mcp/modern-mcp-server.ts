import { Server } from '@modelcontextprotocol/server';
import { registerOnModern } from './request-handlers.js';
import { announceToolListChanges, type McpServerOptions, serveSession } from './served-session.js';
import { sessionHandlers } from './session-handlers.js';

/**
 * Cache hints of the 2026-07-28 revision, true to what they describe: every result is this session's own
 * (`private`), and none may be reused later (`ttlMs: 0`). An entry's name can be rewritten, deleted or expire at
 * any moment, so neither a list of entries nor a read of one stays true for any stated time; the tool list gains
 * the read tool when the session's first entry appears; and the server's tools and templates can change with its
 * next start (another preset or version), which a cache outliving this process would not see.
 */
export const NO_REUSE = { ttlMs: 0, cacheScope: 'private' } as const;

/** {@link NO_REUSE} for every cacheable result of the 2026-07-28 revision. */
export const NO_REUSE_HINTS = {
  'tools/list': NO_REUSE,
  'prompts/list': NO_REUSE,
  'resources/list': NO_REUSE,
  'resources/templates/list': NO_REUSE,
  'resources/read': NO_REUSE,
  'server/discover': NO_REUSE,
};

/**
 * The same server as {@link createMcpServer}, on the v2 SDK (`@modelcontextprotocol/server`), so that
 * `createMcpHandler` and `serveStdio` can serve it to 2026-07-28 clients (`server/discover`, the per-request
 * `_meta` envelope, `resultType` and cache fields, which the SDK's 2026 codec writes). The tools, resources and
 * completions are the same objects as the 2025-11-25 server's, so the two eras cannot drift apart.
 *
 * The SDK calls this once per HTTP request or stdio connection; nothing here outlives that but the store.
 */
export function createModernMcpServer(options: McpServerOptions, era: 'legacy' | 'modern'): Server {
  const { serverInfo, instructions, tools, resources, presence } = serveSession(options);
  const server = new Server(serverInfo, {
    // 2025-11-25 connections hear `tools/list_changed` when the read tool appears; 2026-07-28 has no connection
    // to send it on (its successor, `subscriptions/listen`, is not served yet), so it claims no such notice.
    capabilities: {
      tools: { listChanged: era === 'legacy' && tools.dynamic },
      resources: {},
      completions: {},
    },
    ...(instructions ? { instructions } : {}),
    cacheHints: NO_REUSE_HINTS,
  });

  registerOnModern(server, sessionHandlers({ tools, resources }));
  if (era === 'legacy' && tools.dynamic) announceToolListChanges(server, presence);
  return server;
}
