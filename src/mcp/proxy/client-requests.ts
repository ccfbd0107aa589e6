import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  McpError,
  type Request,
  type Result,
} from '@modelcontextprotocol/sdk/types.js';
import type { ProxyPeer } from './proxy-peers.js';

/** The requests an upstream server may send its client that the proxy passes on to one of its own clients. */
const FORWARDED = {
  'sampling/createMessage': { capability: 'sampling', schema: CreateMessageResultSchema },
  'elicitation/create': { capability: 'elicitation', schema: ElicitResultSchema },
} as const;

type ForwardedMethod = keyof typeof FORWARDED;

/** How a request reaches one client: on the stream of its call that is running, or on its session. */
type SendRequest = (request: Request, schema: never, options: RequestOptions) => Promise<Result>;

interface RunningCall {
  /** The client whose call runs; none for a 2026-07-28 client, which no server request can reach. */
  server: ProxyPeer | undefined;
  send: SendRequest;
}

/**
 * Passes the upstream's requests to a client (`sampling/createMessage`, `elicitation/create`) on to the client that
 * can answer them: the one whose forwarded tool call is running (on that call's stream, so over HTTP it arrives
 * where the client waits for the call), else the only client connected. When calls of several clients are running,
 * nothing in the upstream's request says which one asks, and the request fails with a message that says so rather
 * than asking the wrong person.
 */
export class ClientRequests {
  /** The upstream's requests the proxy passes on, as its client declares them to the upstream. */
  static readonly capabilities = { sampling: {}, elicitation: {} };

  readonly #running = new Set<RunningCall>();
  readonly #servers: ReadonlySet<ProxyPeer>;
  readonly #prepare: (params: Request['params']) => Promise<Request['params']>;
  readonly #timeoutMs: number;

  /**
   * @param servers the connected clients' servers
   * @param prepare what is done to the request's parameters before a client sees them (redaction)
   * @param timeoutMs how long a client may take to answer (a person may be answering an elicitation)
   */
  constructor(
    servers: ReadonlySet<ProxyPeer>,
    prepare: (params: Request['params']) => Promise<Request['params']>,
    timeoutMs: number,
  ) {
    this.#servers = servers;
    this.#prepare = prepare;
    this.#timeoutMs = timeoutMs;
  }

  /** Marks a forwarded tool call of `server` as running until `call` settles. */
  async during<T>(server: ProxyPeer | undefined, send: SendRequest, call: () => Promise<T>): Promise<T> {
    const running: RunningCall = { server, send };
    this.#running.add(running);
    try {
      return await call();
    } finally {
      this.#running.delete(running);
    }
  }

  /** Answers one request of the upstream by asking the client it belongs to. */
  async forward(request: Request): Promise<Result> {
    const forwarded = FORWARDED[request.method as ForwardedMethod];
    if (!forwarded) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `The scratchpad proxy does not pass ${request.method} on to its clients.`,
      );
    }
    const target = this.#target(request.method);
    if (!target.server) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The client whose call is running speaks MCP 2026-07-28, where a server asks for ${request.method} inside its result (input_required); the scratchpad proxy does not pass that on to such clients.`,
      );
    }
    const asked = (target.server.getClientCapabilities() as Record<string, unknown> | undefined)?.[
      forwarded.capability
    ];
    if (asked === undefined) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The client connected to the scratchpad proxy does not support ${forwarded.capability} (${request.method}).`,
      );
    }
    const params = await this.#prepare(request.params);
    return target.send(
      { method: request.method, ...(params === undefined ? {} : { params }) },
      forwarded.schema as never,
      {
        timeout: this.#timeoutMs,
      },
    );
  }

  #target(method: string): RunningCall {
    const servers = new Set([...this.#running].map((call) => call.server));
    if (servers.size === 1) return [...this.#running].at(-1) as RunningCall;
    if (servers.size === 0 && this.#servers.size === 1) {
      const [only] = this.#servers as Set<ProxyPeer>;
      const peer = only as ProxyPeer;
      return { server: peer, send: (request, schema, options) => peer.request(request, schema, options) };
    }
    const count = servers.size > 1 ? servers.size : this.#servers.size;
    throw new McpError(
      ErrorCode.InvalidRequest,
      count === 0
        ? `No client is connected to the scratchpad proxy to answer ${method}.`
        : `${count} clients of the scratchpad proxy could be the one asked (${method}), and nothing in the request says which: ask while one client's tool call is running.`,
    );
  }
}
