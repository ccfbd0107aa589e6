import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ClientCapabilities, Notification, Request, Result } from '@modelcontextprotocol/sdk/types.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import { Subscriptions } from './subscriptions.js';

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

/**
 * The proxy's connected 2025-11-25 clients (one over stdio; one per session over HTTP; 2026-07-28 has no
 * connection), which of them subscribed to which upstream resource, and what the upstream tells them.
 */
export class ProxyPeers {
  readonly #peers = new Set<ProxyPeer>();
  /** What announces a tool-list change to 2026-07-28 listeners (one per watched stdio connection or HTTP bus). */
  readonly #announcers = new Set<() => void>();
  readonly #redacted: <Value>(value: Value) => Promise<Value>;
  /** The upstream is subscribed to a resource while any client is. */
  readonly subscriptions: Subscriptions<ProxyPeer>;

  /**
   * @param unsubscribeUpstream unsubscribes the upstream from a resource no client is subscribed to any more
   * @param redacted what is done to a notification before a client sees it
   */
  constructor(
    unsubscribeUpstream: (uri: string) => Promise<unknown>,
    redacted: <Value>(value: Value) => Promise<Value>,
  ) {
    this.subscriptions = new Subscriptions<ProxyPeer>(unsubscribeUpstream);
    this.#redacted = redacted;
  }

  /** The connected clients. */
  get all(): ReadonlySet<ProxyPeer> {
    return this.#peers;
  }

  /** Keeps `peer` among the connected clients until `server` closes, then drops its subscriptions. */
  track(server: { onclose?: (() => void) | undefined }, peer: ProxyPeer): void {
    this.#peers.add(peer);
    const closed = server.onclose;
    server.onclose = () => {
      closed?.();
      this.#peers.delete(peer);
      void this.subscriptions.drop(peer).catch(() => undefined);
    };
  }

  /**
   * A `ToolListWatch` over the proxy's tool list: `announce` is called on each change the clients are told of,
   * until the returned function is called.
   */
  watchToolList(announce: () => void): () => void {
    const each = () => announce();
    this.#announcers.add(each);
    return () => {
      this.#announcers.delete(each);
    };
  }

  /** Tells every client, and every watch, that the tool list changed. */
  async toolListChanged(): Promise<void> {
    for (const announce of this.#announcers) announce();
    await Promise.all([...this.#peers].map((peer) => peer.sendToolListChanged()));
  }

  /**
   * Passes one of the upstream's notifications on, redacted: a resource update to the clients subscribed to it,
   * anything else to every client. Progress and cancellation belong to a request and are not relayed here.
   */
  relay(notification: Notification): void {
    if (this.#peers.size === 0) return;
    if (notification.method === 'notifications/cancelled' || notification.method === 'notifications/progress')
      return;
    const uri = notification.params?.uri;
    const targets =
      notification.method === 'notifications/resources/updated' && typeof uri === 'string'
        ? this.subscriptions.subscribers(uri)
        : [...this.#peers];
    void this.#redacted(notification)
      .then((shown) =>
        Promise.all(targets.map((target) => target.notification(shown).catch(() => undefined))),
      )
      .catch(() => undefined);
  }

  /** Closes every client's connection. */
  async close(): Promise<void> {
    await Promise.all([...this.#peers].map((peer) => peer.close().catch(() => undefined)));
  }
}
