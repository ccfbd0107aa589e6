import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  type ClientCapabilities,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Notification,
  type ProgressToken,
  ReadResourceRequestSchema,
  type Request,
  type Result,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import { type ServerContext as ModernContext, ProtocolError } from '@modelcontextprotocol/server';

/**
 * One client connection of the proxy as the proxy speaks to it outside a request's answer (relayed notifications,
 * the upstream's sampling and elicitation requests), whichever SDK serves it. The v1 SDK's `Server` is one as it
 * is; {@link modernPeer} makes one of a v2 SDK `Server`.
 */
export interface ProxyPeer {
  notification(notification: Notification): Promise<void>;
  sendToolListChanged(): Promise<void>;
  getClientCapabilities(): ClientCapabilities | undefined;
  /** Asks the client (sampling, elicitation); `schema` is the v1 SDK's result schema, which v2 does not need. */
  request(request: Request, schema: never, options?: RequestOptions): Promise<Result>;
  close(): Promise<void>;
}

/** What a proxy handler needs of the request it answers, in either SDK. */
export interface ProxyRequestContext {
  signal: AbortSignal;
  /** The client's progress token, when it asked for progress. */
  progressToken: ProgressToken | undefined;
  /** Sends a notification tied to this request (progress), on its stream where the transport has one. */
  notify(notification: Notification): Promise<void>;
  /** Asks the client something tied to this request (on its stream over HTTP). */
  send(request: Request, schema: never, options?: RequestOptions): Promise<Result>;
}

/** A handler of the proxy: the request's params, its context, the result. */
// biome-ignore lint/suspicious/noExplicitAny: each method's params are typed where the handler is written.
export type ProxyHandler = (params: any, context: ProxyRequestContext) => Promise<object>;

/** The v1 SDK's request schema of each method the proxy serves. */
const LEGACY_SCHEMAS = {
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'resources/subscribe': SubscribeRequestSchema,
  'resources/unsubscribe': UnsubscribeRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'completion/complete': CompleteRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
} as const;

/** A method the proxy serves. */
export type ProxyMethod = keyof typeof LEGACY_SCHEMAS;

/** Registers `handlers` on a v1 SDK server (2025-11-25 over HTTP sessions). */
export function registerOnLegacy(server: Server, handlers: Map<ProxyMethod, ProxyHandler>): void {
  for (const [method, handler] of handlers) {
    server.setRequestHandler(
      LEGACY_SCHEMAS[method],
      (request, extra) =>
        handler(request.params, {
          signal: extra.signal,
          progressToken: extra._meta?.progressToken,
          notify: (notification) => extra.sendNotification(notification as never),
          send: (request, schema, options) => extra.sendRequest(request as never, schema, options),
        }) as never,
    );
  }
}

/**
 * Registers `handlers` on a v2 SDK server (2025-11-25 over stdio, 2026-07-28 everywhere). The handlers throw the
 * v1 SDK's `McpError`; the v2 SDK answers with the code of its own `ProtocolError` only, so they are turned into it.
 */
export function registerOnModern(server: ModernServer, handlers: Map<ProxyMethod, ProxyHandler>): void {
  for (const [method, handler] of handlers) {
    server.setRequestHandler(method, (async (request: { params?: unknown }, context: ModernContext) => {
      try {
        return await handler(request.params, {
          signal: context.mcpReq.signal,
          progressToken: (context.mcpReq._meta as { progressToken?: ProgressToken } | undefined)
            ?.progressToken,
          notify: (notification) => context.mcpReq.notify(notification as never),
          send: (asked, _schema, options) => context.mcpReq.send(asked as never, options as never) as never,
        });
      } catch (error) {
        if (error instanceof McpError)
          throw new ProtocolError(
            error.code,
            error.message.replace(/^(?:MCP error -?\d+: )+/, ''),
            error.data,
          );
        throw error;
      }
    }) as never);
  }
}

/** A v2 SDK server (2025-11-25 over stdio) as a {@link ProxyPeer}. */
export function modernPeer(server: ModernServer): ProxyPeer {
  return {
    notification: (notification) => server.notification(notification as never),
    sendToolListChanged: () => server.sendToolListChanged(),
    getClientCapabilities: () => server.getClientCapabilities() as ClientCapabilities | undefined,
    request: (request, _schema, options) => server.request(request as never, options as never) as never,
    close: () => server.close(),
  };
}
