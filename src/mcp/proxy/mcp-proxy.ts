import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  type CallToolResult,
  type CompleteRequest,
  ErrorCode,
  type GetPromptRequest,
  type ListPromptsRequest,
  type ListResourcesRequest,
  type ListResourceTemplatesRequest,
  type ListToolsRequest,
  McpError,
  type Notification,
  type ReadResourceRequest,
  type ServerCapabilities,
  type SetLevelRequest,
  type SubscribeRequest,
  type Tool,
  type UnsubscribeRequest,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type ServerCapabilities as ModernCapabilities,
  Server as ModernServer,
} from '@modelcontextprotocol/server';
import { ScratchpadError } from '../../core/errors.js';
import { formatError } from '../../core/format-error.js';
import { isValidName } from '../../core/names.js';
import type { Redactor } from '../../core/redaction/redactor.js';
import {
  createOffloader,
  createOffloadPolicy,
  type OffloadPolicyOptions,
} from '../../scratchpad/offload/index.js';
import type { Scratchpad } from '../../scratchpad/scratchpad.js';
import type { Preset } from '../../tools/preset.js';
import type { JsonSchema } from '../../tools/tool.js';
import { TOOL_NAMES } from '../../tools/tool-names.js';
import { SCRATCHPAD_PARAMETER, withScratchpadParameter } from '../../tools/wrap-tools.js';
import { EntryPresence } from '../entry-presence.js';
import { EntryResources } from '../entry-resources.js';
import { replyContentBudget } from '../mcp-server.js';
import { NO_REUSE_HINTS } from '../modern-mcp-server.js';
import { errorResult, resolveArguments, ScratchpadTools } from '../scratchpad-tools.js';
import { serverInstructions } from '../server-instructions.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../transport/message-limits.js';
import { ClientRequests } from './client-requests.js';
import { forwardToolResult } from './forward-result.js';
import { mergedPage, type Page, type PageSource } from './proxy-cursor.js';
import {
  modernPeer,
  type ProxyHandler,
  type ProxyMethod,
  type ProxyPeer,
  registerOnLegacy,
  registerOnModern,
} from './proxy-surface.js';
import { redactUpstream } from './redact-upstream.js';
import { RedactedNames } from './redacted-names.js';
import { storeLargeResource } from './store-large-resource.js';
import { OutputSchemaValidator } from './structured-preview.js';
import { Subscriptions } from './subscriptions.js';
import type { UpstreamClient } from './upstream-client.js';
import { UpstreamConnection } from './upstream-connection.js';
import { type Upstream, upstreamEndpoint } from './upstream-endpoint.js';

/** Options for {@link startMcpProxy}. */
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
   */
  createModernServer(era: 'legacy' | 'modern'): ModernServer;
  /** Names of the upstream tools served. */
  readonly tools: string[];
  close(): Promise<void>;
}

/**
 * An MCP proxy that adds the scratchpad to any MCP server (started over stdio, or remote by URL). It forwards everything it does not change:
 * tools with their title, annotations, icons, output schema and `_meta` (plus the optional `scratchpad`
 * parameter), resources, templates, prompts, completions, logging, subscriptions, list-changed notifications,
 * progress and cancellation. Large results are stored in the session and replaced by a preview (see
 * {@link forwardToolResult}); the scratchpad's own tools and entries (`scratchpad://SESSION/NAME`) are served next
 * to the upstream's. An upstream that exits is restarted on the next call.
 */
export async function startMcpProxy(options: McpProxyOptions): Promise<McpProxy> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const session = options.scratchpad.session(options.session);
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const budget = replyContentBudget(maxReplyBytes);
  const maxReferenceBytes = options.maxReferenceBytes ?? maxReplyBytes;
  const requestTimeoutMs = options.requestTimeoutMs ?? 10 * 60_000;
  const ownTools = new ScratchpadTools({
    session,
    preset: options.preset,
    maxReplyContentBytes: budget,
    maxReferenceBytes,
    presence: new EntryPresence(session),
    alwaysOfferRead: true,
    log,
  });
  const resources = new EntryResources(session, { maxReplyContentBytes: budget });
  const offloader = createOffloader({
    session,
    policy: createOffloadPolicy({ readTool: TOOL_NAMES.read, ...options.policy }),
  });
  const forwarding = {
    session,
    offloader,
    storeAlways: createOffloader({ session, policy: storeEverythingPolicy(options.policy) }),
    maxReplyContentBytes: budget,
    validator: new OutputSchemaValidator(),
  };
  const endpoint = upstreamEndpoint(options.upstream);
  const redactor = options.scratchpad.redactor;
  const redacted = <Value>(value: Value): Promise<Value> => redactUpstream(value, redactor);
  /** The upstream's tools by the name the client sees (redacted), with the name the upstream knows. */
  let upstreamTools = new Map<string, ServedTool>();
  /** Resource URIs and prompt names listed in redacted form, with the upstream's originals. */
  const resourceUris = new RedactedNames();
  const promptNames = new RedactedNames();
  /** Bumped at each refresh: a tools/list cursor made before names no position in the new list. */
  let toolsVersion = 0;
  /** The connected 2025-11-25 clients (one over stdio; one per session over HTTP); 2026-07-28 has no connection. */
  const servers = new Set<ProxyPeer>();
  /** Which clients subscribed to which upstream resource; the upstream is subscribed while any client is. */
  const subscriptions = new Subscriptions<ProxyPeer>((uri) =>
    upstream.request((client) => client.unsubscribeResource({ uri })),
  );

  const refreshTools = async (): Promise<void> => {
    const listed: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await upstream.request((client) => client.listTools(cursor ? { cursor } : {}));
      listed.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const served = new Map<string, ServedTool>();
    let slice = performance.now();
    for (const tool of listed) {
      // Only the name is redacted now (calls are routed by it); the rest when a tools/list page is served.
      const name = await redactor.redact(tool.name);
      if (ownTools.has(name) || served.has(name)) {
        log(
          `scratchpad proxy: the upstream tool "${name}" has the name of ${ownTools.has(name) ? 'a scratchpad tool' : 'another upstream tool (after redaction)'}; it is not served.`,
        );
        continue;
      }
      served.set(name, { upstreamName: tool.name, tool, name });
      if (performance.now() - slice > 8) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    upstreamTools = served;
    toolsVersion++;
  };

  const relay = (notification: Notification): void => {
    if (servers.size === 0) return;
    if (notification.method === 'notifications/tools/list_changed') {
      void refreshTools()
        .then(() => Promise.all([...servers].map((each) => each.sendToolListChanged())))
        .catch((error: unknown) =>
          log(`scratchpad proxy: cannot refresh the upstream tools: ${String(error)}`),
        );
      return;
    }
    if (notification.method === 'notifications/cancelled' || notification.method === 'notifications/progress')
      return;
    // A resource update goes to the clients that subscribed to it; anything else to every client.
    const uri = notification.params?.uri;
    const targets =
      notification.method === 'notifications/resources/updated' && typeof uri === 'string'
        ? subscriptions.subscribers(uri)
        : [...servers];
    void redacted(notification)
      .then((shown) =>
        Promise.all(
          targets.map((target) => target.notification(shown as Notification).catch(() => undefined)),
        ),
      )
      .catch(() => undefined);
  };

  const clientRequests = new ClientRequests(servers, redacted, requestTimeoutMs);
  const upstream = new UpstreamConnection({
    endpoint,
    onNotification: relay,
    requests: {
      capabilities: ClientRequests.capabilities,
      answer: (request) => clientRequests.forward(request),
    },
    onRestart: () => {
      void refreshTools()
        .then(() => Promise.all([...servers].map((each) => each.sendToolListChanged())))
        .catch(() => undefined);
    },
    ...(options.backoff ? { backoff: options.backoff } : {}),
  });
  const info = await upstream.start();
  await refreshTools();
  const upstreamCapabilities = info.capabilities;

  const capabilities: ServerCapabilities = {
    tools: { listChanged: true },
    resources: {
      listChanged: true,
      ...(upstreamCapabilities.resources?.subscribe ? { subscribe: true } : {}),
    },
    completions: {},
    ...(upstreamCapabilities.prompts ? { prompts: { listChanged: true } } : {}),
    ...(upstreamCapabilities.logging ? { logging: {} } : {}),
  };
  /** What a 2026-07-28 client is told: no notices (it has no connection), no subscriptions, no log level. */
  const modernCapabilities: ServerCapabilities = {
    tools: {},
    resources: {},
    completions: {},
    ...(upstreamCapabilities.prompts ? { prompts: {} } : {}),
  };
  const instructions = [
    info.instructions === undefined ? undefined : redactor.redactSync(info.instructions),
    serverInstructions(options.preset),
  ]
    .filter(Boolean)
    .join('\n\n');
  /**
   * The handlers of one client's server, over the upstream, session and offloader all clients share. `peer` is
   * that client, for what reaches it outside an answer; a 2026-07-28 client has none (the revision is
   * stateless), so it gets no subscriptions and no logging level, which that revision replaced.
   */
  const handlersFor = (peer: ProxyPeer | undefined): Map<ProxyMethod, ProxyHandler> => {
    const handlers = new Map<ProxyMethod, ProxyHandler>();
    const on = (method: ProxyMethod, handler: ProxyHandler) => handlers.set(method, handler);
    const requestOptions = (signal: AbortSignal) => ({
      signal,
      timeout: requestTimeoutMs,
      resetTimeoutOnProgress: true,
    });

    /** One page of a merged list within the reply limit; an item larger than a whole reply is logged. */
    const listPage = async <T>(
      what: string,
      cursor: string | undefined,
      sources: ReadonlyArray<PageSource<T> | undefined>,
    ): Promise<Page<T>> => {
      const page = await mergedPage(cursor, sources, budget).catch(toMcpError);
      for (const item of page.tooLarge)
        log(
          `scratchpad proxy: one upstream ${what} (${String((item as { name?: unknown; uri?: unknown }).name ?? (item as { uri?: unknown }).uri)}) is larger than a whole reply (${budget} bytes); it is not listed.`,
        );
      return page;
    };
    /**
     * An upstream list's pages, each item redacted before it is measured and sent; `names` remembers the item's
     * redacted `key` (a URI, a name) so a request that uses it reaches the upstream's item.
     */
    const redactedPages =
      <T>(
        fetch: (cursor: string | undefined) => Promise<Page<T>>,
        names?: { key: 'uri' | 'name'; names: RedactedNames },
      ): PageSource<T> =>
      async (cursor) => ({
        ...(await fetch(cursor)),
        prepare: async (item: T) => {
          const shown = await redacted(item);
          if (names) {
            const value = (of: T) => (of as Record<string, unknown>)[names.key];
            const [shownKey, originalKey] = [value(shown), value(item)];
            if (typeof shownKey === 'string' && typeof originalKey === 'string')
              names.names.remember(shownKey, originalKey);
          }
          return shown;
        },
      });

    on('tools/list', async (params: ListToolsRequest['params']) => {
      const page = await listPage<Tool>('tool', params?.cursor, [
        async () => ({ items: await ownTools.list() }),
        async () => ({
          items: [...upstreamTools.values()].map((served) => served.tool),
          version: String(toolsVersion),
          prepare: async (tool: Tool) => ({
            ...(await redacted(servedTool(tool))),
            name: await redactor.redact(tool.name),
          }),
        }),
      ]);
      return { tools: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    on('tools/call', async (params: CallToolRequest['params'], extra): Promise<CallToolResult> => {
      const { name } = params;
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      if (ownTools.has(name)) return ownTools.call(name, args, extra.signal);
      const served = upstreamTools.get(name);
      if (!served) {
        return errorResult(
          `There is no tool "${name}". Available tools: ${[...upstreamTools.keys(), ...options.preset.tools.map((item) => item.name)].join(', ')}.`,
        );
      }
      const tool = served.tool;
      try {
        const addsParameter = !hasScratchpadParameter(tool);
        const { [SCRATCHPAD_PARAMETER]: given, ...rest } = args;
        const saveAs = addsParameter ? given : undefined;
        if (saveAs !== undefined && (typeof saveAs !== 'string' || !isValidName(saveAs))) {
          throw new ScratchpadError(
            'INVALID_NAME',
            `"${SCRATCHPAD_PARAMETER}" must be an entry name, got ${JSON.stringify(saveAs)}.`,
            {
              hint: 'Use letters, digits, "-", "_" and "." (e.g. "search-results").',
            },
          );
        }
        const input = (await resolveArguments(
          addsParameter ? rest : args,
          session,
          maxReferenceBytes,
        )) as Record<string, unknown>;
        const progressToken = extra.progressToken;
        let progressSent: Promise<unknown> = Promise.resolve();
        const result = (await clientRequests.during(peer, extra.send, () =>
          upstream.request((client) =>
            client.callTool({ name: served.upstreamName, arguments: input }, undefined, {
              ...requestOptions(extra.signal),
              ...(progressToken === undefined
                ? {}
                : {
                    // In order, and all sent before the result: progress after it would reach no one.
                    onprogress: (progress) => {
                      progressSent = progressSent
                        .then(() => redacted(progress))
                        .then((shown) =>
                          extra.notify({
                            method: 'notifications/progress',
                            params: { ...shown, progressToken },
                          }),
                        )
                        .catch(() => undefined);
                    },
                  }),
            }),
          ),
        )) as CallToolResult;
        // The SDK settles the result at once and hands notifications over a tick later: let the last progress in.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await progressSent;
        return await forwardToolResult(
          result,
          {
            tool: name,
            ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
            ...(typeof saveAs === 'string' ? { saveAs } : {}),
          },
          forwarding,
        );
      } catch (error) {
        if (ScratchpadError.isInstance(error)) return errorResult(formatError(error));
        if (error instanceof McpError) throw await redactedError(error, redactor);
        log(
          `scratchpad proxy: ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        return errorResult(
          await redactor.redact(
            `Error: ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      }
    });

    /** The upstream side of a merged list (redacted), when the upstream serves that kind of item. */
    const upstreamPages = <T>(
      served: unknown,
      signal: AbortSignal,
      list: (
        client: UpstreamClient,
        params: { cursor?: string },
        options: RequestOptions,
      ) => Promise<Page<T>>,
      names?: { key: 'uri' | 'name'; names: RedactedNames },
    ): PageSource<T> | undefined =>
      served
        ? redactedPages(
            (cursor) =>
              forwarded(() =>
                upstream.request((client) => list(client, cursor ? { cursor } : {}, requestOptions(signal))),
              ),
            names,
          )
        : undefined;

    on('resources/list', async (params: ListResourcesRequest['params'], extra) => {
      const page = await listPage('resource', params?.cursor, [
        async (cursor) => {
          const own = await resources.list(cursor);
          return { items: own.resources, nextCursor: own.nextCursor };
        },
        upstreamPages(
          upstreamCapabilities.resources,
          extra.signal,
          async (client, params, options) => {
            const theirs = await client.listResources(params, options);
            return { items: theirs.resources, nextCursor: theirs.nextCursor };
          },
          { key: 'uri', names: resourceUris },
        ),
      ]);
      return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    on('resources/templates/list', async (params: ListResourceTemplatesRequest['params'], extra) => {
      const page = await listPage('resource template', params?.cursor, [
        async () => ({ items: resources.templates().resourceTemplates }),
        upstreamPages(upstreamCapabilities.resources, extra.signal, async (client, params, options) => {
          const theirs = await client.listResourceTemplates(params, options);
          return { items: theirs.resourceTemplates, nextCursor: theirs.nextCursor };
        }),
      ]);
      return { resourceTemplates: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });

    on('resources/read', async (params: ReadResourceRequest['params'], extra) => {
      if (resources.owns(params.uri)) return resources.read(params.uri);
      if (!upstreamCapabilities.resources)
        throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${params.uri}.`);
      const asked = { ...params, uri: resourceUris.original(params.uri) };
      const result = await forwarded(() =>
        upstream.request((client) => client.readResource(asked, requestOptions(extra.signal))),
      );
      return redacted(
        await storeLargeResource(result, params.uri, {
          offloader,
          session,
          maxReplyContentBytes: budget,
        }).catch(toMcpError),
      );
    });

    if (peer && upstreamCapabilities.resources?.subscribe) {
      on('resources/subscribe', async (params: SubscribeRequest['params'], extra) =>
        resources.owns(params.uri)
          ? {}
          : subscriptions.add(peer, resourceUris.original(params.uri), () =>
              upstream.request((client) =>
                client.subscribeResource(
                  { ...params, uri: resourceUris.original(params.uri) },
                  requestOptions(extra.signal),
                ),
              ),
            ),
      );
      on('resources/unsubscribe', async (params: UnsubscribeRequest['params'], extra) =>
        resources.owns(params.uri)
          ? {}
          : subscriptions.remove(peer, resourceUris.original(params.uri), () =>
              upstream.request((client) =>
                client.unsubscribeResource(
                  { ...params, uri: resourceUris.original(params.uri) },
                  requestOptions(extra.signal),
                ),
              ),
            ),
      );
    }

    if (upstreamCapabilities.prompts) {
      on('prompts/list', async (params: ListPromptsRequest['params'], extra) => {
        const page = await listPage('prompt', params?.cursor, [
          upstreamPages(
            true,
            extra.signal,
            async (client, params, options) => {
              const theirs = await client.listPrompts(params, options);
              return { items: theirs.prompts, nextCursor: theirs.nextCursor };
            },
            { key: 'name', names: promptNames },
          ),
        ]);
        return { prompts: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      });
      on('prompts/get', async (params: GetPromptRequest['params'], extra) =>
        redacted(
          await forwarded(() =>
            upstream.request((client) =>
              client.getPrompt(
                { ...params, name: promptNames.original(params.name) },
                requestOptions(extra.signal),
              ),
            ),
          ),
        ),
      );
    }

    on('completion/complete', async (params: CompleteRequest['params'], extra) => {
      const own = await resources.complete(params.ref, params.argument);
      if (own) return own;
      if (!upstreamCapabilities.completions) return { completion: { values: [] } };
      return redacted(
        await forwarded(() =>
          upstream.request((client) => client.complete(params, requestOptions(extra.signal))),
        ),
      );
    });

    if (peer && upstreamCapabilities.logging) {
      on('logging/setLevel', async (params: SetLevelRequest['params'], extra) =>
        forwarded(() =>
          upstream.request((client) => client.setLoggingLevel(params.level, requestOptions(extra.signal))),
        ),
      );
    }
    return handlers;
  };

  /** Keeps `peer` among the connected clients until `server` closes. */
  const track = (server: { onclose?: (() => void) | undefined }, peer: ProxyPeer): void => {
    servers.add(peer);
    const closed = server.onclose;
    server.onclose = () => {
      closed?.();
      servers.delete(peer);
      void subscriptions.drop(peer).catch(() => undefined);
    };
  };

  /** A v1 SDK server for one 2025-11-25 client (an HTTP session). */
  const createServer = (): Server => {
    const server = new Server(
      { name: 'scratchpad-proxy', version: '0.1.0' },
      { capabilities, ...(instructions ? { instructions } : {}) },
    );
    registerOnLegacy(server, handlersFor(server));
    track(server, server);
    return server;
  };

  /**
   * A v2 SDK server: for one 2025-11-25 stdio connection (`legacy`), or one 2026-07-28 request or stdio
   * connection (`modern`). The 2026-07-28 server claims no list-changed notices (it has no connection to send
   * them on) and states its cache hints (see {@link NO_REUSE}).
   */
  const createModernServer = (era: 'legacy' | 'modern'): ModernServer => {
    const server = new ModernServer(
      { name: 'scratchpad-proxy', version: '0.1.0' },
      {
        // The same JSON in both SDKs' types.
        capabilities: (era === 'legacy' ? capabilities : modernCapabilities) as ModernCapabilities,
        ...(instructions ? { instructions } : {}),
        cacheHints: NO_REUSE_HINTS,
      },
    );
    if (era === 'modern') {
      registerOnModern(server, handlersFor(undefined));
      return server;
    }
    const peer = modernPeer(server);
    registerOnModern(server, handlersFor(peer));
    track(server, peer);
    return server;
  };

  /** A failure of a forwarded request: the upstream's protocol errors reach the client redacted too. */
  async function forwarded<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof McpError) throw await redactedError(error, redactor);
      return toMcpError(error);
    }
  }

  let first: Server | undefined;
  return {
    get server() {
      first ??= createServer();
      return first;
    },
    createServer,
    createModernServer,
    get tools() {
      return [...upstreamTools.keys()];
    },
    async close() {
      await Promise.all([...servers].map((each) => each.close().catch(() => undefined)));
      await upstream.close();
    },
  };
}

/**
 * The proxy's policy with no threshold: what stores a value the proxy cuts (a structured value too small to be
 * offloaded by itself) with the policy's format, preview, lifetime and read tool.
 */
function storeEverythingPolicy(policy: OffloadPolicyOptions | undefined) {
  const { perTool: _perTool, summarize: _summarize, tokenizer: _tokenizer, ...rest } = policy ?? {};
  return createOffloadPolicy({
    readTool: TOOL_NAMES.read,
    ...rest,
    threshold: 0,
    minSavings: 0,
    measure: 'bytes',
  });
}

/** An upstream tool as the proxy lists it: everything the upstream said, plus the `scratchpad` parameter. */
function servedTool(tool: Tool): Tool {
  // Task-based execution is not proxied: the call is forwarded as a plain tools/call.
  const { execution: _execution, ...rest } = tool as Tool & { execution?: unknown };
  return hasScratchpadParameter(tool)
    ? rest
    : {
        ...rest,
        inputSchema: withScratchpadParameter(tool.inputSchema as JsonSchema) as Tool['inputSchema'],
      };
}

function hasScratchpadParameter(tool: Tool): boolean {
  return Object.hasOwn(tool.inputSchema.properties ?? {}, SCRATCHPAD_PARAMETER);
}

/** An upstream tool as the client sees it, and what forwarding a call needs. */
interface ServedTool {
  /** The name the upstream knows (the client sees the redacted one). */
  upstreamName: string;
  tool: Tool;
  /** The name the client sees: the upstream's, redacted. */
  name: string;
}

/** An upstream's protocol error with its message and data redacted (the SDK prefixes "MCP error N: "). */
async function redactedError(error: McpError, redactor: Redactor): Promise<McpError> {
  const message = error.message.replace(/^(?:MCP error -?\d+: )+/, '');
  return new McpError(error.code, await redactor.redact(message), await redactUpstream(error.data, redactor));
}

function toMcpError(error: unknown): never {
  if (ScratchpadError.isInstance(error)) {
    throw new McpError(
      error.category === 'user' ? ErrorCode.InvalidParams : ErrorCode.InternalError,
      formatError(error),
    );
  }
  throw error;
}
