import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ErrorCode,
  type Implementation,
  McpError,
  type Notification,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { ScratchpadError } from '../../core/errors.js';
import {
  type ChildExit,
  type ChildProcessCommand,
  ChildProcessTransport,
} from './child-process-transport.js';

/** Configuration of {@link UpstreamConnection}. */
export interface UpstreamConnectionConfig {
  command: ChildProcessCommand;
  /** The command line as the user wrote it, for messages. */
  label: string;
  /** Every notification the upstream sends (list changes, resource updates, log messages). */
  onNotification: (notification: Notification) => void;
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
}

/**
 * One upstream MCP server behind the proxy: started as a child process, restarted on the next request after it
 * exits (waiting a backoff that doubles with each failure in a row, 250 ms up to 10 s), and a request cut short
 * by its exit fails with `UPSTREAM_UNAVAILABLE` that says so, never a wait.
 */
export class UpstreamConnection {
  readonly #config: UpstreamConnectionConfig;
  #client: Client | undefined;
  #transport: ChildProcessTransport | undefined;
  #connecting: Promise<Client> | undefined;
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
  async request<T>(operation: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.#connected();
    const transport = this.#transport;
    try {
      const result = await operation(client);
      this.#failures = 0;
      return result;
    } catch (error) {
      if ((error instanceof McpError && error.code === ErrorCode.ConnectionClosed) || transport?.exit) {
        throw new ScratchpadError(
          'UPSTREAM_UNAVAILABLE',
          `The upstream server "${this.#config.label}" exited during the call (${describeExit(transport?.exit)}); it is restarted on the next call.`,
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

  #connected(): Promise<Client> {
    if (this.#closed)
      return Promise.reject(new ScratchpadError('UPSTREAM_UNAVAILABLE', 'The proxy is closing.'));
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<Client> {
    const restart = this.#started;
    const wait = this.#backoffMs() - (Date.now() - this.#lastFailureAt);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const transport = new ChildProcessTransport(this.#config.command);
    const client = new Client({ name: 'scratchpad-proxy', version: '0.1.0' }, { capabilities: {} });
    client.fallbackNotificationHandler = async (notification) => this.#config.onNotification(notification);
    client.onclose = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#failed();
    };
    try {
      await client.connect(transport, { timeout: this.#config.startTimeoutMs ?? 30_000 });
    } catch (error) {
      await client.close().catch(() => undefined);
      this.#failed();
      throw new ScratchpadError(
        'UPSTREAM_UNAVAILABLE',
        `Cannot start the upstream MCP server "${this.#config.label}": ${(error as Error).message}${transport.exit ? ` (${describeExit(transport.exit)})` : ''}`,
        {
          hint: restart
            ? `It is tried again on the next call, after ${Math.round(this.#backoffMs() / 100) / 10} s.`
            : 'Check the command after "--" (it must speak MCP over stdio), e.g. scratchpad proxy -- npx -y @modelcontextprotocol/server-filesystem /tmp',
          cause: error,
        },
      );
    }
    this.#started = true;
    this.#transport = transport;
    this.#client = client;
    this.#info = {
      capabilities: client.getServerCapabilities() ?? {},
      serverInfo: client.getServerVersion(),
      instructions: client.getInstructions(),
    };
    if (restart) this.#config.onRestart?.();
    return client;
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

function describeExit(exit: ChildExit | undefined): string {
  if (!exit) return 'connection lost';
  if (exit.signal) return `killed by ${exit.signal}`;
  return exit.code === null ? 'it could not run' : `exit code ${exit.code}`;
}
