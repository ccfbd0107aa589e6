import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';

/**
 * Watches whatever makes a server's tool list change and calls `announce` on each change until the returned
 * function is called. `scratchpad mcp` passes one over the session's `EntryPresence` for a preset whose read
 * tool appears with the first entry.
 */
export type ToolListWatch = (announce: () => void) => () => void;

/**
 * The change-event bus of the v2 SDK's `createMcpHandler`, fed by a {@link ToolListWatch}: the watch runs only
 * while a `subscriptions/listen` stream that asked for tool-list changes is open (the SDK subscribes a stream to
 * the bus only then), and each change it reports is published as `tools_list_changed` to those streams.
 */
export class ToolListEventBus implements ServerEventBus {
  readonly #events: InMemoryServerEventBus;
  readonly #watch: ToolListWatch;
  #listeners = 0;
  #stopWatch: (() => void) | undefined;

  constructor(watch: ToolListWatch, onerror?: (error: Error) => void) {
    this.#watch = watch;
    this.#events = new InMemoryServerEventBus(onerror);
  }

  publish(event: ServerEvent): void {
    this.#events.publish(event);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    const unsubscribe = this.#events.subscribe(listener);
    this.#listeners += 1;
    this.#stopWatch ??= this.#watch(() => this.publish({ kind: 'tools_list_changed' }));
    let live = true;
    return () => {
      if (!live) return;
      live = false;
      unsubscribe();
      this.#listeners -= 1;
      if (this.#listeners === 0) this.stop();
    };
  }

  /** Stops the watch (the next subscriber starts it again). */
  stop(): void {
    this.#stopWatch?.();
    this.#stopWatch = undefined;
  }
}
