import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  McpError,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type ServerCapabilities as ModernCapabilities,
  Server as ModernServer,
} from '@modelcontextprotocol/server';
import {
  createOffloader,
  createOffloadPolicy,
  type OffloadPolicyOptions,
} from '../../context/offload/index.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatError } from '../../core/format-error.js';
import type { Redactor } from '../../core/redaction/redactor.js';
import { TOOL_NAMES } from '../../tools/tool-names.js';
import { NO_REUSE_HINTS } from '../modern-mcp-server.js';
import {
  type RequestContext,
  type RequestHandlers,
  registerOnLegacy,
  registerOnModern,
} from '../request-handlers.js';
import { errorResult } from '../scratchpad-tools.js';
import { replyContentBudget, type ServedSession, serveSession } from '../served-session.js';
import { type SessionHandlers, sessionHandlers } from '../session-handlers.js';
import type { ToolListWatch } from '../tool-list-watch.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../transport/message-limits.js';
import { ClientRequests } from './client-requests.js';
import type { ResultForwarderConfig } from './forward-result.js';
import { mergedPage, type Page, type PageSource } from './proxy-cursor.js';
import type { McpProxy, McpProxyOptions } from './proxy-options.js';
import { modernPeer, type ProxyPeer, ProxyPeers } from './proxy-peers.js';
import { redactedError, redactUpstream } from './redact-upstream.js';
import { RedactedNames } from './redacted-names.js';
import { storeLargeResource } from './store-large-resource.js';
import { OutputSchemaValidator } from './structured-preview.js';
import type { UpstreamClient } from './upstream-client.js';
import { UpstreamConnection } from './upstream-connection.js';
import { upstreamEndpoint } from './upstream-endpoint.js';
import { UpstreamToolCalls } from './upstream-tool-calls.js';
import { UpstreamTools } from './upstream-tools.js';

/** What the upstream said when it started, and what the proxy says to its clients in each era. */
interface Started {
  upstream: ServerCapabilities;
  /** The proxy hears the upstream's tool-list changes (a 2025 upstream's notices, a 2026 one's listen stream). */
  upstreamAnnounces: boolean;
  legacy: ServerCapabilities;
  modern: ServerCapabilities;
  instructions: string;
}

/** A list result: its items under `key`, and the cursor of the next page. */
type Listed<Key extends string, T> = { [K in Key]: T[] } & { nextCursor?: string | undefined };

/**
 * The scratchpad served in front of an upstream MCP server. Its handlers are the scratchpad server's
 * ({@link sessionHandlers}: the preset's tools, the session's entries, their completion) with the upstream merged
 * in, the way the MCP SDK's `McpServer` registers its tools, resources and prompts on a low-level server: lists
 * are the server's items then the upstream's (redacted) behind one cursor, within the reply limit; a request for
 * one of the server's items is the server's handler; anything else is forwarded to the upstream, its result
 * redacted, and a large tool result or resource stored in the session and replaced by a preview. Prompts,
 * subscriptions and the log level are the upstream's alone. The same handlers serve both SDKs and eras.
 */
export class ScratchpadProxy implements McpProxy {
  readonly #options: McpProxyOptions;
  readonly #served: ServedSession;
  readonly #own: SessionHandlers;
  readonly #budget: number;
  readonly #log: (message: string) => void;
  readonly #redactor: Redactor;
  readonly #forwarding: ResultForwarderConfig;
  readonly #upstream: UpstreamConnection;
  readonly #upstreamTools: UpstreamTools;
  readonly #peers: ProxyPeers;
  readonly #clientRequests: ClientRequests;
  readonly #toolCalls: UpstreamToolCalls;
  /** Resource URIs and prompt names listed in redacted form, with the upstream's originals. */
  readonly #resourceUris = new RedactedNames();
  readonly #promptNames = new RedactedNames();
  #first: Server | undefined;
  /** What the upstream said when it started, and what the proxy says to its clients in each era. */
  #started: Started | undefined;

  /** Starts the upstream, lists its tools, and returns the proxy ready to serve clients. */
  static async start(options: McpProxyOptions): Promise<ScratchpadProxy> {
    const proxy = new ScratchpadProxy(options);
    await proxy.#start();
    return proxy;
  }

  private constructor(options: McpProxyOptions) {
    this.#options = options;
    this.#log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
    this.#served = serveSession({ ...options, log: this.#log }, { alwaysOfferRead: true });
    this.#own = sessionHandlers(this.#served);
    this.#budget = replyContentBudget(options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES);
    this.#redactor = options.scratchpad.redactor;
    const session = options.scratchpad.session(options.session);
    this.#forwarding = {
      session,
      offloader: createOffloader({
        session,
        policy: createOffloadPolicy({ readTool: TOOL_NAMES.read, ...options.policy }),
      }),
      storeAlways: createOffloader({ session, policy: storeEverythingPolicy(options.policy) }),
      maxReplyContentBytes: this.#budget,
      validator: new OutputSchemaValidator(),
    };
    const redacted = <Value>(value: Value) => redactUpstream(value, this.#redactor);
    this.#peers = new ProxyPeers(
      (uri) => this.#upstream.request((client) => client.unsubscribeResource({ uri })),
      redacted,
    );
    this.#clientRequests = new ClientRequests(this.#peers.all, redacted, this.#requestTimeoutMs);
    this.#upstreamTools = new UpstreamTools(
      this.#redactor,
      (name) => this.#served.tools.has(name),
      this.#log,
    );
    this.#upstream = new UpstreamConnection({
      endpoint: upstreamEndpoint(options.upstream),
      onNotification: (notification) => {
        if (notification.method !== 'notifications/tools/list_changed') this.#peers.relay(notification);
        // Listed again even when no one listens: a 2026-07-28 client's next `tools/list` shows the change.
        else
          void this.#toolsChanged().catch((error: unknown) =>
            this.#log(`scratchpad proxy: cannot refresh the upstream tools: ${String(error)}`),
          );
      },
      requests: {
        capabilities: ClientRequests.capabilities,
        answer: (request) => this.#clientRequests.forward(request),
      },
      onRestart: () => void this.#toolsChanged().catch(() => undefined),
      ...(options.backoff ? { backoff: options.backoff } : {}),
    });
    this.#toolCalls = new UpstreamToolCalls({
      upstream: this.#upstream,
      clientRequests: this.#clientRequests,
      forwarding: this.#forwarding,
      redactor: this.#redactor,
      maxReferenceBytes: options.maxReferenceBytes ?? options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
      requestTimeoutMs: this.#requestTimeoutMs,
      log: this.#log,
    });
  }

  async #start(): Promise<void> {
    const info = await this.#upstream.start();
    await this.#refreshTools();
    const upstream = info.capabilities;
    const instructions = [
      info.instructions === undefined ? undefined : this.#redactor.redactSync(info.instructions),
      this.#served.instructions,
    ];
    this.#started = {
      upstream,
      upstreamAnnounces: info.toolListHeard,
      legacy: {
        tools: { listChanged: true },
        resources: { listChanged: true, ...(upstream.resources?.subscribe ? { subscribe: true } : {}) },
        completions: {},
        ...(upstream.prompts ? { prompts: { listChanged: true } } : {}),
        ...(upstream.logging ? { logging: {} } : {}),
      },
      // What a 2026-07-28 client is told: no subscriptions, no log level; `tools.listChanged` is set per server.
      modern: { tools: {}, resources: {}, completions: {}, ...(upstream.prompts ? { prompts: {} } : {}) },
      instructions: instructions.filter(Boolean).join('\n\n'),
    };
  }

  get #ready(): Started {
    if (!this.#started) throw new Error('The proxy has not started.');
    return this.#started;
  }

  /** A v1 SDK server for one 2025-11-25 client, made on first use (the one `createServer` would make). */
  get server(): Server {
    this.#first ??= this.createServer();
    return this.#first;
  }

  /** Names of the upstream tools served. */
  get tools(): string[] {
    return this.#upstreamTools.names;
  }

  /** A v1 SDK server for one more 2025-11-25 client (an HTTP session). */
  createServer(): Server {
    const server = new Server(
      { name: 'scratchpad-proxy', version: '0.1.0' },
      { capabilities: this.#ready.legacy, ...this.#instructionsOption },
    );
    registerOnLegacy(server, this.#handlers(server));
    this.#peers.track(server, server);
    return server;
  }

  /**
   * A v2 SDK server: for one 2025-11-25 stdio connection (`legacy`), or one 2026-07-28 request or stdio
   * connection (`modern`), which states its cache hints (see `NO_REUSE`). A 2026-07-28 server claims
   * `tools.listChanged` only with `toolListWatched` (the serving entry feeds {@link watchToolList} to its
   * `subscriptions/listen` streams) and an upstream whose changes the proxy hears (a 2025-11-25 upstream, or a
   * 2026-07-28 one that honoured the proxy's own listen filter).
   */
  createModernServer(
    era: 'legacy' | 'modern',
    { toolListWatched = false }: { toolListWatched?: boolean } = {},
  ): ModernServer {
    const { legacy, modern, upstreamAnnounces } = this.#ready;
    const capabilities =
      era === 'legacy' ? legacy : { ...modern, tools: { listChanged: toolListWatched && upstreamAnnounces } };
    const server = new ModernServer(
      { name: 'scratchpad-proxy', version: '0.1.0' },
      {
        // The same JSON in both SDKs' types.
        capabilities: capabilities as ModernCapabilities,
        ...this.#instructionsOption,
        cacheHints: NO_REUSE_HINTS,
      },
    );
    if (era === 'modern') {
      registerOnModern(server, this.#handlers(undefined));
      return server;
    }
    const peer = modernPeer(server);
    registerOnModern(server, this.#handlers(peer));
    this.#peers.track(server, peer);
    return server;
  }

  /**
   * Watches the proxy's tool list (the upstream's `notifications/tools/list_changed`, and its restarts): what
   * `serveStdioEras` and `serveHttp` take as `watchToolList` to tell 2026-07-28 listeners.
   */
  readonly watchToolList: ToolListWatch = (announce) => this.#peers.watchToolList(announce);

  async close(): Promise<void> {
    await this.#peers.close();
    await this.#upstream.close();
  }

  get #instructionsOption(): { instructions?: string } {
    const { instructions } = this.#ready;
    return instructions ? { instructions } : {};
  }

  get #requestTimeoutMs(): number {
    return this.#options.requestTimeoutMs ?? 10 * 60_000;
  }

  /**
   * The handlers of one client's server: the scratchpad server's, with the upstream merged in. `peer` is that
   * client, for what reaches it outside an answer; a 2026-07-28 client has none (the revision is stateless), so
   * it gets no subscriptions and no logging level, which that revision replaced.
   */
  #handlers(peer: ProxyPeer | undefined): RequestHandlers {
    const own = this.#own;
    const { tools, resources } = this.#served;
    const { upstream } = this.#ready;
    const handlers: RequestHandlers = {
      'tools/list': async (params, context) => {
        const page = await this.#page<Tool>('tool', params?.cursor, [
          this.#ownPages(own['tools/list'], 'tools', context),
          this.#upstreamTools.pages(),
        ]);
        return { tools: page.items, ...next(page) };
      },
      'tools/call': (params, context) =>
        tools.has(params.name)
          ? own['tools/call'](params, context)
          : this.#callUpstream(params, context, peer),
      'resources/list': async (params, context) => {
        const page = await this.#page<Resource>('resource', params?.cursor, [
          this.#ownPages(own['resources/list'], 'resources', context),
          upstream.resources
            ? this.#upstreamPages(
                context,
                (client, asked, options) => client.listResources(asked, options),
                'resources',
                { key: 'uri', names: this.#resourceUris },
              )
            : undefined,
        ]);
        return { resources: page.items, ...next(page) };
      },
      'resources/templates/list': async (params, context) => {
        const page = await this.#page<ResourceTemplate>('resource template', params?.cursor, [
          this.#ownPages(own['resources/templates/list'], 'resourceTemplates', context),
          upstream.resources
            ? this.#upstreamPages(
                context,
                (client, asked, options) => client.listResourceTemplates(asked, options),
                'resourceTemplates',
              )
            : undefined,
        ]);
        return { resourceTemplates: page.items, ...next(page) };
      },
      'resources/read': async (params, context) => {
        if (resources.owns(params.uri)) return own['resources/read'](params, context);
        if (!upstream.resources)
          throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${params.uri}.`);
        const asked = { ...params, uri: this.#resourceUris.original(params.uri) };
        const result = await this.#forward(context, (client, options) => client.readResource(asked, options));
        return this.#redacted(
          await storeLargeResource(result, params.uri, {
            offloader: this.#forwarding.offloader,
            session: this.#forwarding.session,
            maxReplyContentBytes: this.#budget,
          }).catch(toMcpError),
        );
      },
      'completion/complete': async (params, context) => {
        if (resources.completes(params.ref) || !upstream.completions)
          return own['completion/complete'](params, context);
        return this.#redacted(
          await this.#forward(context, (client, options) => client.complete(params, options)),
        );
      },
    };
    if (upstream.prompts) {
      handlers['prompts/list'] = async (params, context) => {
        const page = await this.#page<Prompt>('prompt', params?.cursor, [
          this.#upstreamPages(
            context,
            (client, asked, options) => client.listPrompts(asked, options),
            'prompts',
            {
              key: 'name',
              names: this.#promptNames,
            },
          ),
        ]);
        return { prompts: page.items, ...next(page) };
      };
      handlers['prompts/get'] = async (params, context) => {
        const asked = { ...params, name: this.#promptNames.original(params.name) };
        return this.#redacted(
          await this.#forward(context, (client, options) => client.getPrompt(asked, options)),
        );
      };
    }
    if (peer && upstream.resources?.subscribe) {
      const subscriptions = this.#peers.subscriptions;
      handlers['resources/subscribe'] = async (params, context) => {
        if (resources.owns(params.uri)) return {};
        const asked = { ...params, uri: this.#resourceUris.original(params.uri) };
        return subscriptions.add(peer, asked.uri, () =>
          this.#upstream.request((client) => client.subscribeResource(asked, this.#requestOptions(context))),
        );
      };
      handlers['resources/unsubscribe'] = async (params, context) => {
        if (resources.owns(params.uri)) return {};
        const asked = { ...params, uri: this.#resourceUris.original(params.uri) };
        return subscriptions.remove(peer, asked.uri, () =>
          this.#upstream.request((client) =>
            client.unsubscribeResource(asked, this.#requestOptions(context)),
          ),
        );
      };
    }
    if (peer && upstream.logging) {
      handlers['logging/setLevel'] = (params, context) =>
        this.#forward(context, (client, options) => client.setLoggingLevel(params.level, options));
    }
    return handlers;
  }

  /** Forwards one call of an upstream tool, or says which tools there are. */
  async #callUpstream(
    params: CallToolRequest['params'],
    context: RequestContext,
    peer: ProxyPeer | undefined,
  ): Promise<CallToolResult> {
    const served = this.#upstreamTools.get(params.name);
    if (served) return this.#toolCalls.call(served, params.arguments ?? {}, context, peer);
    const available = [...this.#upstreamTools.names, ...this.#options.preset.tools.map((item) => item.name)];
    return errorResult(`There is no tool "${params.name}". Available tools: ${available.join(', ')}.`);
  }

  /** One page of a merged list within the reply limit; an item larger than a whole reply is logged. */
  async #page<T>(
    what: string,
    cursor: string | undefined,
    sources: ReadonlyArray<PageSource<T> | undefined>,
  ) {
    const page = await mergedPage(cursor, sources, this.#budget).catch(toMcpError);
    for (const item of page.tooLarge) {
      const label = (item as { name?: unknown }).name ?? (item as { uri?: unknown }).uri;
      this.#log(
        `scratchpad proxy: one upstream ${what} (${String(label)}) is larger than a whole reply (${this.#budget} bytes); it is not listed.`,
      );
    }
    return page;
  }

  /** The scratchpad server's side of a merged list: its own list handler, page by page. */
  #ownPages<Key extends string, T>(
    list: (params: { cursor?: string }, context: RequestContext) => Promise<Listed<Key, T>>,
    key: Key,
    context: RequestContext,
  ): PageSource<T> {
    return async (cursor) => {
      const listed = await list(cursor === undefined ? {} : { cursor }, context);
      return { items: listed[key], nextCursor: listed.nextCursor };
    };
  }

  /**
   * The upstream's side of a merged list, each item redacted before it is measured and sent; `names` remembers
   * the item's redacted `key` (a URI, a name) so a request that uses it reaches the upstream's item.
   */
  #upstreamPages<Key extends string, T>(
    context: RequestContext,
    list: (
      client: UpstreamClient,
      params: { cursor?: string },
      options: RequestOptions,
    ) => Promise<Listed<Key, T>>,
    key: Key,
    names?: { key: 'uri' | 'name'; names: RedactedNames },
  ): PageSource<T> {
    return async (cursor): Promise<Page<T>> => {
      const listed = await this.#forward(context, (client, options) =>
        list(client, cursor ? { cursor } : {}, options),
      );
      return {
        items: listed[key],
        nextCursor: listed.nextCursor,
        prepare: async (item: T) => {
          const shown = await this.#redacted(item);
          if (names) {
            const value = (of: T) => (of as Record<string, unknown>)[names.key];
            const [shownKey, originalKey] = [value(shown), value(item)];
            if (typeof shownKey === 'string' && typeof originalKey === 'string')
              names.names.remember(shownKey, originalKey);
          }
          return shown;
        },
      };
    };
  }

  /** Runs one request on the upstream; its protocol errors reach the client redacted, ours as `McpError`. */
  async #forward<T>(
    context: RequestContext,
    run: (client: UpstreamClient, options: RequestOptions) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.#upstream.request((client) => run(client, this.#requestOptions(context)));
    } catch (error) {
      if (error instanceof McpError) throw await redactedError(error, this.#redactor);
      return toMcpError(error);
    }
  }

  #requestOptions(context: RequestContext): RequestOptions {
    return { signal: context.signal, timeout: this.#requestTimeoutMs, resetTimeoutOnProgress: true };
  }

  #redacted<Value>(value: Value): Promise<Value> {
    return redactUpstream(value, this.#redactor);
  }

  async #refreshTools(): Promise<void> {
    await this.#upstreamTools.refresh((operation) => this.#upstream.request(operation));
  }

  /** Lists the upstream's tools again and tells the clients that the list changed. */
  async #toolsChanged(): Promise<void> {
    await this.#refreshTools();
    await this.#peers.toolListChanged();
  }
}

/** The `nextCursor` of a page, when there is one. */
function next(page: { nextCursor?: string | undefined }): { nextCursor?: string } {
  return page.nextCursor ? { nextCursor: page.nextCursor } : {};
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

function toMcpError(error: unknown): never {
  if (ScratchpadError.isInstance(error)) {
    throw new McpError(
      error.category === 'user' ? ErrorCode.InvalidParams : ErrorCode.InternalError,
      formatError(error),
    );
  }
  throw error;
}
