import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Notification,
  ReadResourceRequestSchema,
  type ServerCapabilities,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  type Tool,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatError } from '../../core/format-error.js';
import { isValidName } from '../../core/names.js';
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
import { errorResult, resolveArguments, ScratchpadTools } from '../scratchpad-tools.js';
import { serverInstructions } from '../server-instructions.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../transport/message-limits.js';
import { forwardToolResult } from './forward-result.js';
import { mergedPage, type Page } from './proxy-cursor.js';
import { storeLargeResource } from './store-large-resource.js';
import { OutputSchemaValidator } from './structured-preview.js';
import { UpstreamConnection } from './upstream-connection.js';

/** Options for {@link startMcpProxy}. */
export interface McpProxyOptions {
  scratchpad: Scratchpad;
  /** The one session the proxy stores results in and serves. */
  session: string;
  /** The scratchpad tools served next to the upstream's (their read tool reads the offloaded results). */
  preset: Preset;
  /** The upstream MCP server, started as a child process speaking stdio. */
  upstream: { command: string; args: string[]; env?: Record<string, string>; cwd?: string };
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

/** A running proxy: the MCP server to connect a transport to, and how to stop the upstream. */
export interface McpProxy {
  server: Server;
  /** Names of the upstream tools served. */
  readonly tools: string[];
  close(): Promise<void>;
}

/**
 * An MCP proxy that adds the scratchpad to any stdio MCP server. It forwards everything it does not change:
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
    maxReplyContentBytes: budget,
    validator: new OutputSchemaValidator(),
  };
  const label = [options.upstream.command, ...options.upstream.args].join(' ');
  let upstreamTools = new Map<string, Tool>();
  let server: Server | undefined;

  const refreshTools = async (): Promise<void> => {
    const listed: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await upstream.request((client) => client.listTools(cursor ? { cursor } : {}));
      listed.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const served = new Map<string, Tool>();
    for (const tool of listed) {
      if (ownTools.has(tool.name)) {
        log(
          `scratchpad proxy: the upstream tool "${tool.name}" has the name of a scratchpad tool; it is not served.`,
        );
        continue;
      }
      served.set(tool.name, tool);
    }
    upstreamTools = served;
  };

  const relay = (notification: Notification): void => {
    if (!server) return;
    if (notification.method === 'notifications/tools/list_changed') {
      void refreshTools()
        .then(() => server?.sendToolListChanged())
        .catch((error: unknown) =>
          log(`scratchpad proxy: cannot refresh the upstream tools: ${String(error)}`),
        );
      return;
    }
    if (notification.method === 'notifications/cancelled' || notification.method === 'notifications/progress')
      return;
    void server.notification(notification as Parameters<Server['notification']>[0]).catch(() => undefined);
  };

  const upstream = new UpstreamConnection({
    command: {
      command: options.upstream.command,
      args: options.upstream.args,
      env: { ...getDefaultEnvironment(), ...(options.upstream.env ?? {}) },
      ...(options.upstream.cwd ? { cwd: options.upstream.cwd } : {}),
    },
    label,
    onNotification: relay,
    onRestart: () => {
      void refreshTools()
        .then(() => server?.sendToolListChanged())
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
  const instructions = [info.instructions, serverInstructions(options.preset)].filter(Boolean).join('\n\n');
  server = new Server(
    { name: 'scratchpad-proxy', version: '0.1.0' },
    { capabilities, ...(instructions ? { instructions } : {}) },
  );
  const requestOptions = (signal: AbortSignal) => ({
    signal,
    timeout: requestTimeoutMs,
    resetTimeoutOnProgress: true,
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...(await ownTools.list()), ...[...upstreamTools.values()].map(servedTool)],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (ownTools.has(name)) return ownTools.call(name, args, extra.signal);
    const tool = upstreamTools.get(name);
    if (!tool) {
      return errorResult(
        `There is no tool "${name}". Available tools: ${[...upstreamTools.keys(), ...options.preset.tools.map((item) => item.name)].join(', ')}.`,
      );
    }
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
      const progressToken = extra._meta?.progressToken;
      const result = (await upstream.request((client) =>
        client.callTool({ name, arguments: input }, undefined, {
          ...requestOptions(extra.signal),
          ...(progressToken === undefined
            ? {}
            : {
                onprogress: (progress) =>
                  void extra
                    .sendNotification({
                      method: 'notifications/progress',
                      params: { ...progress, progressToken },
                    })
                    .catch(() => undefined),
              }),
        }),
      )) as CallToolResult;
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
      if (error instanceof McpError) throw error;
      log(
        `scratchpad proxy: ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return errorResult(`Error: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });

  /** The upstream side of a merged list, when the upstream serves resources. */
  const upstreamPages = <T>(
    signal: AbortSignal,
    list: (client: Client, params: { cursor?: string }, options: RequestOptions) => Promise<Page<T>>,
  ) =>
    upstreamCapabilities.resources
      ? (cursor: string | undefined) =>
          forwarded(() =>
            upstream.request((client) => list(client, cursor ? { cursor } : {}, requestOptions(signal))),
          )
      : undefined;

  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const page = await mergedPage(
      request.params?.cursor,
      async (cursor) => {
        const own = await resources.list(cursor);
        return { items: own.resources, nextCursor: own.nextCursor };
      },
      upstreamPages(extra.signal, async (client, params, options) => {
        const theirs = await client.listResources(params, options);
        return { items: theirs.resources, nextCursor: theirs.nextCursor };
      }),
    ).catch(toMcpError);
    return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request, extra) => {
    const page = await mergedPage(
      request.params?.cursor,
      async () => ({ items: resources.templates().resourceTemplates }),
      upstreamPages(extra.signal, async (client, params, options) => {
        const theirs = await client.listResourceTemplates(params, options);
        return { items: theirs.resourceTemplates, nextCursor: theirs.nextCursor };
      }),
    ).catch(toMcpError);
    return { resourceTemplates: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    if (resources.owns(request.params.uri)) return resources.read(request.params.uri);
    if (!upstreamCapabilities.resources)
      throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${request.params.uri}.`);
    const result = await forwarded(() =>
      upstream.request((client) => client.readResource(request.params, requestOptions(extra.signal))),
    );
    return storeLargeResource(result, request.params.uri, {
      offloader,
      session,
      maxReplyContentBytes: budget,
    }).catch(toMcpError);
  });

  if (upstreamCapabilities.resources?.subscribe) {
    server.setRequestHandler(SubscribeRequestSchema, async (request, extra) =>
      resources.owns(request.params.uri)
        ? {}
        : forwarded(() =>
            upstream.request((client) =>
              client.subscribeResource(request.params, requestOptions(extra.signal)),
            ),
          ),
    );
    server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) =>
      resources.owns(request.params.uri)
        ? {}
        : forwarded(() =>
            upstream.request((client) =>
              client.unsubscribeResource(request.params, requestOptions(extra.signal)),
            ),
          ),
    );
  }

  if (upstreamCapabilities.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, async (request, extra) =>
      forwarded(() =>
        upstream.request((client) => client.listPrompts(request.params, requestOptions(extra.signal))),
      ),
    );
    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) =>
      forwarded(() =>
        upstream.request((client) => client.getPrompt(request.params, requestOptions(extra.signal))),
      ),
    );
  }

  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const own = await resources.complete(request.params.ref, request.params.argument);
    if (own) return own;
    if (!upstreamCapabilities.completions) return { completion: { values: [] } };
    return forwarded(() =>
      upstream.request((client) => client.complete(request.params, requestOptions(extra.signal))),
    );
  });

  if (upstreamCapabilities.logging) {
    server.setRequestHandler(SetLevelRequestSchema, async (request, extra) =>
      forwarded(() =>
        upstream.request((client) =>
          client.setLoggingLevel(request.params.level, requestOptions(extra.signal)),
        ),
      ),
    );
  }

  const proxyServer = server;
  return {
    server: proxyServer,
    get tools() {
      return [...upstreamTools.keys()];
    },
    async close() {
      await proxyServer.close().catch(() => undefined);
      await upstream.close();
    },
  };
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

/** Runs a forwarded request; a scratchpad failure (the upstream exited) becomes a protocol error the client sees. */
async function forwarded<T>(run: () => Promise<T>): Promise<T> {
  return run().catch(toMcpError);
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
