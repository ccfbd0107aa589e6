import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  type CompleteRequest,
  CompleteRequestSchema,
  type CompleteResult,
  type GetPromptRequest,
  GetPromptRequestSchema,
  type GetPromptResult,
  type ListPromptsRequest,
  ListPromptsRequestSchema,
  type ListPromptsResult,
  type ListResourcesRequest,
  ListResourcesRequestSchema,
  type ListResourcesResult,
  type ListResourceTemplatesRequest,
  ListResourceTemplatesRequestSchema,
  type ListResourceTemplatesResult,
  type ListToolsRequest,
  ListToolsRequestSchema,
  type ListToolsResult,
  McpError,
  type Notification,
  type ProgressToken,
  type ReadResourceRequest,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Request,
  type Result,
  type SetLevelRequest,
  SetLevelRequestSchema,
  type SubscribeRequest,
  SubscribeRequestSchema,
  type UnsubscribeRequest,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import { type ServerContext as ModernContext, ProtocolError } from '@modelcontextprotocol/server';

/** What a handler needs of the request it answers, in either SDK. */
export interface RequestContext {
  signal: AbortSignal;
  /** The client's progress token, when it asked for progress. */
  progressToken: ProgressToken | undefined;
  /** Sends a notification tied to this request (progress), on its stream where the transport has one. */
  notify(notification: Notification): Promise<void>;
  /** Asks the client something tied to this request (on its stream over HTTP). */
  send(request: Request, schema: never, options?: RequestOptions): Promise<Result>;
}

type Handler<Params, Answer> = (params: Params, context: RequestContext) => Promise<Answer>;

/**
 * Request handlers by method, written once against the v1 SDK's types and registered on a server of either SDK
 * ({@link registerOnLegacy}, {@link registerOnModern}): the scratchpad server's (`session-handlers.ts`) and the
 * proxy's, which are the server's with the upstream merged in. A method without a handler is not served.
 */
export interface RequestHandlers {
  'tools/list'?: Handler<ListToolsRequest['params'], ListToolsResult>;
  'tools/call'?: Handler<CallToolRequest['params'], CallToolResult>;
  'resources/list'?: Handler<ListResourcesRequest['params'], ListResourcesResult>;
  'resources/templates/list'?: Handler<ListResourceTemplatesRequest['params'], ListResourceTemplatesResult>;
  'resources/read'?: Handler<ReadResourceRequest['params'], ReadResourceResult>;
  'resources/subscribe'?: Handler<SubscribeRequest['params'], object>;
  'resources/unsubscribe'?: Handler<UnsubscribeRequest['params'], object>;
  'prompts/list'?: Handler<ListPromptsRequest['params'], ListPromptsResult>;
  'prompts/get'?: Handler<GetPromptRequest['params'], GetPromptResult>;
  'completion/complete'?: Handler<CompleteRequest['params'], CompleteResult>;
  'logging/setLevel'?: Handler<SetLevelRequest['params'], object>;
}

/** The v1 SDK's request schema of each method. */
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
} as const satisfies Record<keyof RequestHandlers, unknown>;

type AnyHandler = Handler<unknown, object>;

function entries(handlers: RequestHandlers): Array<[keyof RequestHandlers, AnyHandler]> {
  return Object.entries(handlers).filter(([, handler]) => handler !== undefined) as Array<
    [keyof RequestHandlers, AnyHandler]
  >;
}

/** Registers `handlers` on a v1 SDK server (2025-11-25). */
export function registerOnLegacy(server: Server, handlers: RequestHandlers): void {
  for (const [method, handler] of entries(handlers)) {
    server.setRequestHandler(
      LEGACY_SCHEMAS[method],
      (request, extra) =>
        handler(request.params, {
          signal: extra.signal,
          progressToken: extra._meta?.progressToken,
          notify: (notification) => extra.sendNotification(notification as never),
          send: (asked, schema, options) => extra.sendRequest(asked as never, schema, options),
        }) as never,
    );
  }
}

/**
 * Registers `handlers` on a v2 SDK server (2025-11-25 over stdio, 2026-07-28 everywhere). The handlers throw the
 * v1 SDK's `McpError`; the v2 SDK answers with the code of its own `ProtocolError` only, so they are turned into
 * it, without the v1 SDK's "MCP error N: " prefix.
 */
export function registerOnModern(server: ModernServer, handlers: RequestHandlers): void {
  for (const [method, handler] of entries(handlers)) {
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
          throw new ProtocolError(error.code, withoutLegacyPrefix(error.message), error.data);
        throw error;
      }
    }) as never);
  }
}

/** The message of a v1 SDK `McpError` without the "MCP error N: " its constructor puts before it. */
export function withoutLegacyPrefix(message: string): string {
  return message.replace(/^(?:MCP error -?\d+: )+/, '');
}
