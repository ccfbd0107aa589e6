import {
  StreamableHTTPClientTransport as ModernHttpTransport,
  type Transport as ModernTransport,
  SdkHttpError,
} from '@modelcontextprotocol/client';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ScratchpadError } from '../../core/errors.js';
import { ChildProcessTransport } from './child-process-transport.js';

/** An upstream MCP server the proxy starts itself and speaks to over stdio. */
export interface UpstreamCommand {
  command: string;
  args: string[];
  /** Added to the SDK's default environment (PATH, HOME, …; not the proxy's whole environment). */
  env?: Record<string, string>;
  cwd?: string;
}

/** A remote upstream MCP server reached by URL: Streamable HTTP, or HTTP+SSE where a server only speaks that. */
export interface UpstreamUrl {
  url: string;
  /** Sent with every request (`Authorization: Bearer …`); never shown in messages. */
  headers?: Record<string, string>;
}

/** Where the proxy's upstream is. */
export type Upstream = UpstreamCommand | UpstreamUrl;

/** One way to open a connection to the upstream, tried in order by {@link UpstreamConnection}. */
export interface UpstreamTransportOption {
  /** `stdio`, `streamable-http` or `sse`, for messages. */
  kind: 'stdio' | 'streamable-http' | 'sse';
  open(): Transport;
  /**
   * The same connection for the v2 SDK's client, tried when the upstream refuses the 2025-11-25 `initialize`
   * because it speaks only 2026-07-28 (HTTP+SSE has none: that transport predates the revision).
   */
  openModern?(): ModernTransport;
}

/** How to reach one upstream: its label for messages and the transports to try. */
export interface UpstreamEndpoint {
  /** The command line, or the URL without credentials. */
  label: string;
  remote: boolean;
  /** The transports to try, in order; the next is tried only when the server says it does not speak the one before. */
  transports: UpstreamTransportOption[];
}

/** The endpoint of `upstream`; `CONFIG_INVALID` for a URL that is not http(s). */
export function upstreamEndpoint(upstream: Upstream): UpstreamEndpoint {
  if ('url' in upstream) return remoteEndpoint(upstream);
  const command = {
    command: upstream.command,
    args: upstream.args,
    env: { ...getDefaultEnvironment(), ...(upstream.env ?? {}) },
    ...(upstream.cwd ? { cwd: upstream.cwd } : {}),
  };
  return {
    label: [upstream.command, ...upstream.args].join(' '),
    remote: false,
    transports: [
      {
        kind: 'stdio',
        open: () => new ChildProcessTransport(command),
        // The same line-delimited JSON-RPC over the child's pipes, which the v2 client probes in place.
        openModern: () => new ChildProcessTransport(command) as unknown as ModernTransport,
      },
    ],
  };
}

function remoteEndpoint(upstream: UpstreamUrl): UpstreamEndpoint {
  let url: URL;
  try {
    url = new URL(upstream.url);
  } catch {
    throw new ScratchpadError('CONFIG_INVALID', `Not a URL: ${upstream.url}`, {
      hint: 'Give the upstream server as --url https://host/mcp.',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ScratchpadError(
      'CONFIG_INVALID',
      `The upstream URL must be http:// or https://, not ${url.protocol}`,
      {
        hint: 'Give the upstream server as --url https://host/mcp.',
      },
    );
  const headers = { ...(upstream.headers ?? {}) };
  // Credentials in the URL go in a header, so that the label (and every message) can leave them out.
  if (url.username || url.password) {
    headers.Authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const requestInit = { headers };
  return {
    label: url.href,
    remote: true,
    transports: [
      {
        kind: 'streamable-http',
        open: () => new StreamableHTTPClientTransport(url, { requestInit }),
        openModern: () => new ModernHttpTransport(url, { requestInit }),
      },
      {
        kind: 'sse',
        open: () =>
          new SSEClientTransport(url, {
            requestInit,
            eventSourceInit: {
              fetch: (input, init) =>
                fetch(input, {
                  ...init,
                  headers: { ...(init?.headers as Record<string, string>), ...headers },
                }),
            },
          }),
      },
    ],
  };
}

/** The HTTP status a failed connection attempt was answered with, when the SDK says. */
export function httpStatusOf(error: unknown): number | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof StreamableHTTPError && cause.code !== undefined && cause.code > 0) return cause.code;
    if (cause instanceof SseError && cause.code !== undefined && cause.code > 0) return cause.code;
    if (SdkHttpError.isInstance(cause) && cause.status > 0) return cause.status;
  }
  return undefined;
}

/**
 * True when the upstream refused the 2025-11-25 `initialize` with "unsupported protocol version" (-32022, the
 * code of the 2026-07-28 revision): it speaks only the new revision, which the v2 client negotiates. Over stdio
 * the v1 client reports the JSON-RPC error; over HTTP the 400 reply that carries it.
 */
export function refusesLegacy(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === UNSUPPORTED_PROTOCOL_VERSION) return true;
    if (cause instanceof StreamableHTTPError && /"code"\s*:\s*-32022\b/.test(cause.message)) return true;
  }
  return false;
}

/** The JSON-RPC error code of 2026-07-28 for a protocol version the server does not speak. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * True when a connection attempt failed because the server does not speak that transport (404, 405 and other
 * 4xx but 401/403/408/429), so the next one is worth a try.
 */
export function unsupportedTransport(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
}

/** The hint for an upstream that refused the proxy's credentials (no OAuth flow in the proxy). */
export function authorizationHint(status: number | undefined): string | undefined {
  if (status !== 401 && status !== 403) return undefined;
  return status === 401
    ? 'The upstream requires authorization. The proxy does not run an OAuth flow: get a token from the service ' +
        "(or its CLI) and pass it with --header 'Authorization: Bearer TOKEN' or --upstream-token-file FILE."
    : 'The upstream refused the credentials sent (HTTP 403): check the token and its scopes.';
}
