import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, ProtocolErrorCode, Server, type Tool } from '@modelcontextprotocol/server';
import { ScratchpadError } from '../core/errors.js';
import { formatError } from '../core/format-error.js';
import { announceToolListChanges, type McpServerOptions, serveSession } from './served-session.js';
import { SessionHandleTools } from './session-handle-tools.js';
import { SessionHandles } from './session-handles.js';

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
 *
 * A dynamic preset's tool list changes when the session's first entry appears: a 2025-11-25 connection hears it
 * from this server (`notifications/tools/list_changed`); a 2026-07-28 client hears it on a `subscriptions/listen`
 * stream, which the serving entry feeds (`serveStdioEras` or `serveHttp` with `watchToolList`). Pass
 * `toolListWatched: true` only when it does: it is what lets the server declare `tools.listChanged` to 2026 clients.
 */
export function createModernMcpServer(
  options: McpServerOptions,
  era: 'legacy' | 'modern',
  { toolListWatched = false }: { toolListWatched?: boolean } = {},
): Server {
  const own = serveSession(options);
  const { serverInfo, instructions, tools, presence } = own;
  const server = new Server(serverInfo, {
    // Claimed only where it is delivered: on a 2025-11-25 connection by this server, to 2026-07-28 listeners by
    // the serving entry's watch.
    capabilities: {
      tools: { listChanged: tools.dynamic && (era === 'legacy' || toolListWatched) },
      resources: {},
      completions: {},
    },
    ...(instructions ? { instructions } : {}),
    cacheHints: NO_REUSE_HINTS,
  });

  // 2026-07-28 clients may pass a session handle (decision 019): each request is served by the session it names.
  const handles =
    era === 'modern' && options.sessionHandles !== false
      ? new SessionHandleTools(
          new SessionHandles(options.scratchpad, options.sessionHandles ?? {}),
          own,
          (session) => serveSession({ ...options, session }),
        )
      : undefined;
  const servedFor = async (meta: Record<string, unknown> | undefined) =>
    handles ? asProtocolError(() => handles.servedFor(meta)) : own;

  // The v1 SDK types a schema property as `object`, the v2 SDK as JSON values: the same JSON on the wire.
  server.setRequestHandler('tools/list', async () => ({
    tools: (await (handles ?? tools).list()) as unknown as Tool[],
  }));
  server.setRequestHandler('tools/call', (request, context) =>
    (handles ?? tools).call(request.params.name, request.params.arguments ?? {}, context.mcpReq.signal),
  );
  server.setRequestHandler('resources/list', async (request) => {
    const served = await servedFor(request.params?._meta);
    return asProtocolError(() => served.resources.list(request.params?.cursor));
  });
  server.setRequestHandler('resources/templates/list', async (request) =>
    (await servedFor(request.params?._meta)).resources.templates(),
  );
  server.setRequestHandler('resources/read', async (request) => {
    const served = await servedFor(request.params._meta);
    return asProtocolError(() => served.resources.read(request.params.uri));
  });
  server.setRequestHandler('completion/complete', async (request) => {
    const served = await servedFor(request.params._meta);
    const result = await served.resources.complete(request.params.ref, request.params.argument);
    return result ?? { completion: { values: [] } };
  });
  if (era === 'legacy' && tools.dynamic) announceToolListChanges(server, presence);
  return server;
}

/**
 * The shared resource code throws the v1 SDK's error class; the v2 SDK answers with the code only for its own. A
 * bad or expired session handle is the request's fault: Invalid Params, with the message and hint.
 */
async function asProtocolError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof McpError) throw new ProtocolError(error.code, error.message, error.data);
    if (
      ScratchpadError.hasCode(error, 'SESSION_HANDLE_INVALID') ||
      ScratchpadError.hasCode(error, 'SESSION_HANDLE_EXPIRED')
    )
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, formatError(error), { code: error.code });
    throw error;
  }
}
