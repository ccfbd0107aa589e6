import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, isLegacyRequest, type Server } from '@modelcontextprotocol/server';
import { ToolListEventBus, type ToolListWatch } from '../tool-list-watch.js';
import { replaceOversizedReply } from '../transport/message-limits.js';
import { relayLimitedEvents } from './reply-limited-sse.js';
import { createSummarisedLog } from './summarised-log.js';

/** Options for {@link createModernHttpRoute}. */
export interface ModernHttpRouteOptions {
  /** Builds the server for one 2026-07-28 request (the revision is stateless: one instance per request). */
  createServer: () => Server;
  maxRequestBytes: number;
  maxReplyBytes: number;
  log: (message: string) => void;
  /**
   * What changes the tool list: its changes reach every `subscriptions/listen` stream that asked for them. Without
   * it nothing is announced, and the server must declare `tools.listChanged: false`.
   */
  watchToolList?: ToolListWatch;
}

/** The 2026-07-28 leg of the HTTP endpoint, next to the sessionful 2025-11-25 one. */
export interface ModernHttpRoute {
  /** True when the v2 SDK classifies this request as 2026-07-28 traffic (an enveloped request or `server/discover`). */
  claims(request: IncomingMessage, bytes: Buffer, body: unknown): Promise<boolean>;
  /** Answers a request {@link claims} took, with the reply limit applied. */
  serve(request: IncomingMessage, response: ServerResponse, bytes: Buffer, body: unknown): Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves 2026-07-28 requests through the v2 SDK's `createMcpHandler` in its strict mode (`legacy: 'reject'`);
 * 2025-11-25 traffic stays on the sessionful transport it had before, routed there by the SDK's own
 * `isLegacyRequest`. The caller has already applied the HTTP guards (Host, Origin, token, method, body size).
 * Every result is held to `maxReplyBytes`, in a JSON reply and in an SSE one (only when a handler sends something
 * before its result: the proxy's forwarded progress), which is relayed event by event as it arrives. A
 * `subscriptions/listen` stream stays open until the client goes away or the route closes, and carries the tool
 * list's changes when `watchToolList` is given.
 */
export function createModernHttpRoute(options: ModernHttpRouteOptions): ModernHttpRoute {
  // A client can send refused requests at will: one line per minute, and a count, not one line each.
  const refused = createSummarisedLog({
    log: options.log,
    prefix: 'scratchpad: ',
    what: '2026-07-28 requests refused or failed',
  });
  const bus = options.watchToolList ? new ToolListEventBus(options.watchToolList) : undefined;
  const handler = createMcpHandler(() => options.createServer(), {
    legacy: 'reject',
    ...(bus ? { bus } : {}),
    // 'auto': a plain JSON reply unless a handler sends something before its result (ours send nothing).
    responseMode: 'auto',
    maxRequestBodySize: options.maxRequestBytes,
    onerror: (error) => refused(`2026-07-28 request refused or failed: ${error.message}`),
  });
  return {
    async claims(request, bytes, body) {
      if (request.method !== 'POST') return false;
      return !(await isLegacyRequest(toWebRequest(request, bytes), body, {
        maxRequestBodySize: options.maxRequestBytes,
      }));
    },
    async serve(request, response, bytes, body) {
      // A client that goes away aborts the request: a listen stream is torn down (and stops its watch) then.
      const gone = new AbortController();
      response.once('close', () => gone.abort());
      const answer = await handler.fetch(toWebRequest(request, bytes, gone.signal), { parsedBody: body });
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, key) => {
        headers[key] = value;
      });
      if (headers['content-type']?.startsWith('text/event-stream') && answer.body) {
        // An SSE reply (a handler sent something before its result): relayed as it comes, each result held to
        // the limit like a JSON reply.
        delete headers['content-length'];
        response.writeHead(answer.status, headers);
        await relayLimitedEvents(answer.body, response, options.maxReplyBytes, (data, bytes) =>
          limitReply(data, bytes, options.maxReplyBytes),
        );
        return;
      }
      const text = await answer.text();
      const size = Buffer.byteLength(text);
      if (size <= options.maxReplyBytes || !headers['content-type']?.startsWith('application/json')) {
        response.writeHead(answer.status, headers).end(text);
        return;
      }
      const replaced = limitReply(text, size, options.maxReplyBytes);
      delete headers['content-length'];
      response.writeHead(answer.status, headers).end(replaced);
    },
    close: async () => {
      refused.flush();
      await handler.close();
      bus?.stop();
    },
  };
}

/** The oversized reply's replacement: the same id, an error (or an error tool result) that names the limit. */
function limitReply(text: string, size: number, maxReplyBytes: number): string {
  const message = JSON.parse(text) as JSONRPCMessage;
  const replaced = replaceOversizedReply(message, size, maxReplyBytes) as {
    result?: Record<string, unknown>;
  };
  // A 2026-07-28 result carries its kind; the replacement is a finished tool result like the one it replaces.
  if (replaced.result) replaced.result.resultType = 'complete';
  return JSON.stringify(replaced);
}

function toWebRequest(request: IncomingMessage, bytes: Buffer, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const url = new URL(request.url ?? '/mcp', `http://${request.headers.host ?? 'localhost'}`);
  return new Request(url, {
    method: request.method ?? 'POST',
    headers,
    ...(signal ? { signal } : {}),
    ...(request.method === 'POST' ? { body: new Uint8Array(bytes) } : {}),
  });
}
