import {
  Client as ModernClient,
  type ClientCapabilities as ModernClientCapabilities,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  McpError,
  type Notification,
  type Request,
  type Result,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { ScratchpadError } from '../../core/errors.js';
import { mcpError } from '../mcp-errors.js';
import { type ChildExit, ChildProcessTransport } from './child-process-transport.js';
import { modernUpstreamClient, type UpstreamClient } from './upstream-client.js';
import {
  authorizationHint,
  httpStatusOf,
  refusesLegacy,
  type UpstreamEndpoint,
  type UpstreamTransportOption,
  unsupportedTransport,
} from './upstream-endpoint.js';

/** Configuration of {@link UpstreamConnection}. */
export interface UpstreamConnectionConfig {
  /** The upstream: a command started over stdio, or a URL (see `upstreamEndpoint`). */
  endpoint: UpstreamEndpoint;
  /** Every notification the upstream sends (list changes, resource updates, log messages). */
  onNotification: (notification: Notification) => void;
  /**
   * The upstream's requests to its client (sampling, elicitation), answered by passing them on; the client
   * declares `capabilities` to the upstream. Without it, the client declares none and the upstream asks nothing.
   */
  requests?: { capabilities: ClientCapabilities; answer: (request: Request) => Promise<Result> };
  /** After the upstream was restarted (its lists may have changed). */
  onRestart?: () => void;
  /** Backoff between restarts: the first wait, doubled per failure in a row, up to the longest. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** How long `initialize` may take (default 30 s). */
  startTimeoutMs?: number;
}

/** What the upstream said about itself when it started. */
export interface UpstreamInfo {
  capabilities: ServerCapabilities;
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** The protocol revision the upstream speaks with the proxy: 2025-11-25 (`legacy`) or 2026-07-28 (`modern`). */
  era: 'legacy' | 'modern';
  /**
   * The proxy hears the upstream's tool-list changes: a 2025-11-25 upstream's notices, or a 2026-07-28 upstream's
   * `subscriptions/listen` stream that honours `toolsListChanged` (opened at the start, not reopened if it ends).
   */
  toolListHeard: boolean;
}

/** One connected client of either SDK, with what the upstream said about itself. */
interface Connected {
  client: UpstreamClient;
  info: UpstreamInfo;
}

/**
 * One upstream MCP server behind the proxy: started as a child process, or reached by URL (Streamable HTTP, falling
 * back to HTTP+SSE when the server does not speak it). It speaks 2025-11-25 through the v1 SDK's client; an
 * upstream that refuses that `initialize` as an unsupported version (it speaks only 2026-07-28) is connected again
 * through the v2 SDK's client, which negotiates (`versionNegotiation: auto`). Restarted or reconnected on the next request after it exits
 * or its connection is lost (waiting a backoff that doubles with each failure in a row, 250 ms up to 10 s); a
 * request cut short by that fails with `UPSTREAM_UNAVAILABLE` that says so, never a wait.
 */
export class UpstreamConnection {
  readonly #config: UpstreamConnectionConfig;
  #client: UpstreamClient | undefined;
  #transport: Transport | undefined;
  /** The transport that worked last (a remote server that needed SSE keeps it on reconnection). */
  #working: UpstreamTransportOption | undefined;
  #connecting: Promise<UpstreamClient> | undefined;
  #failures = 0;
  #lastFailureAt = 0;
  #started = false;
  #closed = false;
  #info: UpstreamInfo | undefined;

  constructor(config: UpstreamConnectionConfig) {
    this.#config = config;
  }

  /** The upstream's capabilities, identity and instructions (from its latest start). */
  get info(): UpstreamInfo {
    if (!this.#info) throw new Error('The upstream has not been started yet.');
    return this.#info;
  }

  /** Runs `operation` on a connected client, restarting the upstream first if it exited. */
  async request<T>(operation: (client: UpstreamClient) => Promise<T>): Promise<T> {
    const client = await this.#connected();
    const transport = this.#transport;
    try {
      const result = await operation(client);
      this.#failures = 0;
      return result;
    } catch (error) {
      const exit = transport instanceof ChildProcessTransport ? transport.exit : undefined;
      const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
      if (closed || exit) {
        throw mcpError(
          'UPSTREAM_UNAVAILABLE',
          `The upstream server "${this.#label}" ${this.#endpoint.remote ? 'closed the connection' : 'exited'} during the call (${describeExit(exit)}); it is ${this.#endpoint.remote ? 'reconnected' : 'restarted'} on the next call.`,
          {
            hint: 'Run the call again if it is safe to repeat (what it did upstream is unknown).',
            cause: error,
          },
        );
      }
      if (this.#endpoint.remote && lostRemote(error)) {
        // The server went away or forgot the session (restarted): the next call opens a new connection.
        if (this.#client === client) {
          this.#client = undefined;
          this.#failed();
          void client.close().catch(() => undefined);
        }
        throw mcpError(
          'UPSTREAM_UNAVAILABLE',
          `The upstream server "${this.#label}" could not be reached during the call (${(error as Error).message}); it is reconnected on the next call.`,
          {
            hint: 'Run the call again if it is safe to repeat (what it did upstream is unknown).',
            cause: error,
          },
        );
      }
      throw error;
    }
  }

  /** Starts the upstream (the first time, without backoff); `UPSTREAM_UNAVAILABLE` when it does not come up. */
  async start(): Promise<UpstreamInfo> {
    await this.#connected();
    return this.info;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => undefined);
  }

  #connected(): Promise<UpstreamClient> {
    if (this.#closed) return Promise.reject(mcpError('UPSTREAM_UNAVAILABLE', 'The proxy is closing.'));
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<UpstreamClient> {
    const restart = this.#started;
    const wait = this.#backoffMs() - (Date.now() - this.#lastFailureAt);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const options = this.#working ? [this.#working] : this.#endpoint.transports;
    let failure: unknown;
    for (const [index, option] of options.entries()) {
      let transport: Transport | undefined = option.open();
      let connected: Connected;
      try {
        connected = await this.#connectLegacy(transport);
      } catch (error) {
        failure = error;
        const modern = refusesLegacy(error) ? option.openModern?.() : undefined;
        if (!modern) {
          if (index < options.length - 1 && unsupportedTransport(error)) continue;
          this.#failed();
          throw this.#startFailure(error, transport, restart);
        }
        transport = modern as unknown as Transport;
        try {
          connected = await this.#connectModern(modern);
        } catch (modernError) {
          this.#failed();
          throw this.#startFailure(modernError, transport, restart);
        }
      }
      this.#started = true;
      this.#working = option;
      this.#transport = transport;
      this.#client = connected.client;
      this.#info = connected.info;
      if (restart) this.#config.onRestart?.();
      return connected.client;
    }
    this.#failed();
    throw this.#startFailure(failure, undefined, restart);
  }

  /** A 2025-11-25 connection through the v1 SDK's client; closed again when it fails. */
  async #connectLegacy(transport: Transport): Promise<Connected> {
    const requests = this.#config.requests;
    const client = new Client(
      { name: 'scratchpad-proxy', version: '0.1.0' },
      { capabilities: requests?.capabilities ?? {} },
    );
    client.fallbackNotificationHandler = async (notification) => this.#config.onNotification(notification);
    if (requests) client.fallbackRequestHandler = async (request) => requests.answer(request);
    client.onclose = () => this.#lost(client);
    try {
      await client.connect(transport, { timeout: this.#config.startTimeoutMs ?? 30_000 });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return {
      client,
      info: {
        capabilities: client.getServerCapabilities() ?? {},
        serverInfo: client.getServerVersion(),
        instructions: client.getInstructions(),
        era: 'legacy',
        toolListHeard: true,
      },
    };
  }

  /**
   * A connection through the v2 SDK's client, which probes with `server/discover` and speaks 2026-07-28 where the
   * upstream does. That revision has no server-to-client requests: the upstream asks for sampling or elicitation
   * inside a result (`input_required`), which the client answers through the same handlers, so the proxy's
   * forwarding of those requests works in both eras.
   */
  async #connectModern(transport: Parameters<ModernClient['connect']>[0]): Promise<Connected> {
    const requests = this.#config.requests;
    const client = new ModernClient(
      { name: 'scratchpad-proxy', version: '0.1.0' },
      {
        // The same JSON in both SDKs' types.
        capabilities: (requests?.capabilities ?? {}) as ModernClientCapabilities,
        versionNegotiation: { mode: 'auto' },
      },
    );
    client.fallbackNotificationHandler = async (notification) =>
      this.#config.onNotification(notification as Notification);
    if (requests) {
      for (const method of ['sampling/createMessage', 'elicitation/create'] as const)
        client.setRequestHandler(method, (request) => requests.answer(request as Request) as never);
    }
    const upstream = modernUpstreamClient(client);
    client.onclose = () => this.#lost(upstream);
    try {
      await client.connect(transport, { timeout: this.#config.startTimeoutMs ?? 30_000 });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    const era = client.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
    return {
      client: upstream,
      info: {
        capabilities: (client.getServerCapabilities() ?? {}) as ServerCapabilities,
        serverInfo: client.getServerVersion() as Implementation | undefined,
        instructions: client.getInstructions(),
        era,
        toolListHeard: era === 'legacy' || (await this.#listenForTools(client)),
      },
    };
  }

  /**
   * Opens `subscriptions/listen` for tool-list changes on a 2026-07-28 upstream that declares them: its notices
   * then reach `onNotification` (the client's fallback handler) as a 2025 upstream's do. Whether it honours them.
   */
  async #listenForTools(client: ModernClient): Promise<boolean> {
    if (client.getServerCapabilities()?.tools?.listChanged !== true) return false;
    try {
      const subscription = await client.listen(
        { toolsListChanged: true },
        { timeout: this.#config.startTimeoutMs ?? 30_000 },
      );
      return subscription.honoredFilter.toolsListChanged === true;
    } catch {
      return false;
    }
  }

  /** The connection of `client` closed: the next request connects again (after the backoff). */
  #lost(client: UpstreamClient): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#failed();
  }

  #startFailure(error: unknown, transport: Transport | undefined, restart: boolean): ScratchpadError {
    const exit = transport instanceof ChildProcessTransport ? transport.exit : undefined;
    const status = httpStatusOf(error);
    const verb = this.#endpoint.remote ? 'connect to' : 'start';
    return mcpError(
      'UPSTREAM_UNAVAILABLE',
      `Cannot ${verb} the upstream MCP server "${this.#label}": ${(error as Error | undefined)?.message ?? 'no transport'}${exit ? ` (${describeExit(exit)})` : ''}`,
      {
        hint:
          authorizationHint(status) ??
          (restart
            ? `It is tried again on the next call, after ${Math.round(this.#backoffMs() / 100) / 10} s.`
            : this.#endpoint.remote
              ? 'Check the URL (Streamable HTTP or HTTP+SSE MCP endpoint, often ending in /mcp or /sse) and that the server is up.'
              : 'Check the command after "--" (it must speak MCP over stdio), e.g. scratchpad proxy -- npx -y @modelcontextprotocol/server-filesystem /tmp'),
        ...(error === undefined ? {} : { cause: error }),
      },
    );
  }

  get #endpoint(): UpstreamEndpoint {
    return this.#config.endpoint;
  }

  get #label(): string {
    return this.#config.endpoint.label;
  }

  #failed(): void {
    this.#failures++;
    this.#lastFailureAt = Date.now();
  }

  #backoffMs(): number {
    if (this.#failures === 0) return 0;
    const initial = this.#config.backoff?.initialMs ?? 250;
    const max = this.#config.backoff?.maxMs ?? 10_000;
    return Math.min(max, initial * 2 ** (this.#failures - 1));
  }
}

/** A remote call that failed because the server could not be reached or no longer knows the session. */
function lostRemote(error: unknown): boolean {
  const status = httpStatusOf(error);
  if (status === 404) return true;
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof TypeError && /fetch failed/i.test(cause.message)) return true;
    const code = (cause as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR_SOCKET)$/.test(code)
    )
      return true;
  }
  return false;
}

function describeExit(exit: ChildExit | undefined): string {
  if (!exit) return 'connection lost';
  if (exit.signal) return `killed by ${exit.signal}`;
  return exit.code === null ? 'it could not run' : `exit code ${exit.code}`;
}
