import type { Entry } from 'llm-scratchpad';
import type { Offloader } from 'llm-scratchpad';
import type { ContentReceiver } from '../executors/content-channel.js';

/**
 * Streamed content up to this size is held in memory and offloaded like any result (it may stay inline); past it
 * the content goes straight into the store as it arrives.
 */
const HOLD_CONTENT_BYTES = 1024 * 1024;

/** What came on a call's content channel. */
export type ReceivedContent =
  | { kind: 'held'; bytes: Buffer }
  | { kind: 'stored'; entry: Entry }
  | { kind: 'none' };

/** Takes one call's content channel: {@link ContentIntake.receive} runs while the executor does. */
export interface ContentIntake {
  receive: ContentReceiver;
  received(): ReceivedContent;
}

/**
 * The runtime's receiver of an executor's streamed content: the first {@link HOLD_CONTENT_BYTES} are held; when
 * more arrive, everything is written into the store as an entry of its own (`<tool>_<n>`) while the executor is
 * still producing it, so neither process holds a large result whole.
 */
export function createContentIntake(
  offloader: Offloader,
  request: { tool: string; turn: string; step: number },
): ContentIntake {
  let received: ReceivedContent = { kind: 'none' };
  return {
    async receive(channel) {
      const iterator = channel[Symbol.asyncIterator]();
      const held: Buffer[] = [];
      let size = 0;
      for (;;) {
        const next = await iterator.next();
        if (next.done) {
          received = { kind: 'held', bytes: Buffer.concat(held, size) };
          return;
        }
        held.push(next.value);
        size += next.value.length;
        if (size > HOLD_CONTENT_BYTES) break;
      }
      async function* everything(): AsyncGenerator<Uint8Array> {
        while (held.length > 0) yield held.shift() as Buffer;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      }
      const entry = await offloader.storeStream({ ...request, content: everything() });
      received = { kind: 'stored', entry };
    },
    received: () => received,
  };
}
