/**
 * Which clients of the proxy subscribed to which upstream resource. The upstream is subscribed once, when the first
 * client subscribes, and unsubscribed when the last one unsubscribes or goes away; an update reaches only the
 * clients that subscribed to that resource.
 */
export class Subscriptions<Client> {
  readonly #byUri = new Map<string, Set<Client>>();
  readonly #unsubscribeUpstream: (uri: string) => Promise<unknown>;

  constructor(unsubscribeUpstream: (uri: string) => Promise<unknown>) {
    this.#unsubscribeUpstream = unsubscribeUpstream;
  }

  /** Subscribes `client` to `uri`; `subscribeUpstream` runs when no client was subscribed yet. */
  async add(client: Client, uri: string, subscribeUpstream: () => Promise<object>): Promise<object> {
    const clients = this.#byUri.get(uri);
    if (clients && clients.size > 0) {
      clients.add(client);
      return {};
    }
    const result = await subscribeUpstream();
    const now = this.#byUri.get(uri) ?? new Set<Client>();
    now.add(client);
    this.#byUri.set(uri, now);
    return result;
  }

  /** Unsubscribes `client` from `uri`; `unsubscribeUpstream` runs when it was the last one. */
  async remove(client: Client, uri: string, unsubscribeUpstream: () => Promise<object>): Promise<object> {
    const clients = this.#byUri.get(uri);
    clients?.delete(client);
    if (clients && clients.size > 0) return {};
    this.#byUri.delete(uri);
    return unsubscribeUpstream();
  }

  /** The clients subscribed to `uri`. */
  subscribers(uri: string): Client[] {
    return [...(this.#byUri.get(uri) ?? [])];
  }

  /** Forgets a client that went away, unsubscribing the upstream from what only it was subscribed to. */
  async drop(client: Client): Promise<void> {
    const orphaned: string[] = [];
    for (const [uri, clients] of this.#byUri) {
      if (clients.delete(client) && clients.size === 0) {
        this.#byUri.delete(uri);
        orphaned.push(uri);
      }
    }
    await Promise.all(orphaned.map((uri) => this.#unsubscribeUpstream(uri).catch(() => undefined)));
  }
}
