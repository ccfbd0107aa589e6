import {
  type Client as ModernClient,
  ProtocolError,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * What the proxy asks of its connection to the upstream: the v1 SDK's `Client` (a 2025-11-25 upstream) has it
 * as it is; {@link modernUpstreamClient} gives it over the v2 SDK's `Client` (an upstream that speaks only
 * 2026-07-28), so the proxy's forwarding code is the same for both eras.
 */
export type UpstreamClient = Pick<
  Client,
  | 'listTools'
  | 'callTool'
  | 'listResources'
  | 'listResourceTemplates'
  | 'readResource'
  | 'subscribeResource'
  | 'unsubscribeResource'
  | 'listPrompts'
  | 'getPrompt'
  | 'complete'
  | 'setLoggingLevel'
  | 'close'
>;

/** The reserved `_meta` keys of 2026-07-28 (`io.modelcontextprotocol/…`): the upstream's envelope, not its data. */
const RESERVED_META = 'io.modelcontextprotocol/';

/**
 * A v2 SDK client (connected in the 2026-07-28 era) seen as an {@link UpstreamClient}: results lose the
 * upstream's reserved `_meta` keys (its `serverInfo` would otherwise reach the proxy's clients as if it were the
 * proxy's), lists are always fetched afresh (the proxy states its own cache hints), and the v2 SDK's errors become
 * the v1 SDK's `McpError` with the same code and message, which is what the proxy redacts and passes on.
 */
export function modernUpstreamClient(client: ModernClient): UpstreamClient {
  const fresh = { cacheMode: 'bypass' } as const;
  const forwarded: Record<keyof UpstreamClient, (...args: never[]) => Promise<unknown>> = {
    // 'refresh' (not 'bypass'): callTool reads the tool's definition from the stored tools/list.
    listTools: (params?: object, options?: object) =>
      run(() => client.listTools(params, { ...options, cacheMode: 'refresh' })),
    callTool: (params: Parameters<ModernClient['callTool']>[0], _schema?: unknown, options?: object) =>
      run(() => client.callTool(params, options)),
    listResources: (params?: object, options?: object) =>
      run(() => client.listResources(params, { ...options, ...fresh })),
    listResourceTemplates: (params?: object, options?: object) =>
      run(() => client.listResourceTemplates(params, { ...options, ...fresh })),
    readResource: (params: Parameters<ModernClient['readResource']>[0], options?: object) =>
      run(() => client.readResource(params, { ...options, ...fresh })),
    subscribeResource: (params: Parameters<ModernClient['subscribeResource']>[0], options?: object) =>
      run(() => client.subscribeResource(params, options)),
    unsubscribeResource: (params: Parameters<ModernClient['unsubscribeResource']>[0], options?: object) =>
      run(() => client.unsubscribeResource(params, options)),
    listPrompts: (params?: object, options?: object) =>
      run(() => client.listPrompts(params, { ...options, ...fresh })),
    getPrompt: (params: Parameters<ModernClient['getPrompt']>[0], options?: object) =>
      run(() => client.getPrompt(params, options)),
    complete: (params: Parameters<ModernClient['complete']>[0], options?: object) =>
      run(() => client.complete(params, options)),
    setLoggingLevel: (level: Parameters<ModernClient['setLoggingLevel']>[0], options?: object) =>
      run(() => client.setLoggingLevel(level, options)),
    close: () => client.close(),
  };
  return forwarded as unknown as UpstreamClient;
}

async function run(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return withoutReservedMeta(await call());
  } catch (error) {
    throw asLegacyError(error);
  }
}

/**
 * The result without what belongs to the upstream's answer rather than its content: the reserved `_meta` keys,
 * and the result kind and cache hints of 2026-07-28 (the proxy answers with its own).
 */
function withoutReservedMeta(result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const {
    _meta: meta,
    resultType: _kind,
    ttlMs: _ttl,
    cacheScope: _scope,
    ...rest
  } = result as {
    _meta?: Record<string, unknown>;
    resultType?: unknown;
    ttlMs?: unknown;
    cacheScope?: unknown;
  };
  if (!meta) return rest;
  const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith(RESERVED_META)));
  return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : rest;
}

/**
 * The v2 SDK's error as the v1 SDK's: a protocol error keeps its code, message and data; a closed connection
 * and a timeout become the v1 codes the connection code looks for; anything else (an HTTP failure with its
 * status) passes as it is.
 */
function asLegacyError(error: unknown): unknown {
  if (ProtocolError.isInstance(error)) return new McpError(error.code, error.message, error.data);
  if (SdkError.isInstance(error)) {
    if (error.code === SdkErrorCode.ConnectionClosed)
      return new McpError(ErrorCode.ConnectionClosed, error.message, error.data);
    if (error.code === SdkErrorCode.RequestTimeout)
      return new McpError(ErrorCode.RequestTimeout, error.message, error.data);
  }
  return error;
}
