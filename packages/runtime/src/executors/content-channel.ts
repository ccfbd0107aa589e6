import type { Readable } from 'node:stream';

/**
 * The content channel: a pipe on file descriptor 3 of every executor call, on which an executor may stream its
 * `content` as raw bytes while it runs (a whole file, a command's output, a response body) instead of putting it
 * inside its JSON. It then prints `{ok, content_stream: "text" | "binary", metadata}` on stdout. The runtime reads
 * the channel as it arrives, so an output of any size up to the bound is never held whole by either side.
 */
export const CONTENT_CHANNEL_FD = 3;

/** Environment variable naming the channel's file descriptor (set on every call). */
export const CONTENT_FD_VARIABLE = 'SCRATCHPAD_CONTENT_FD';

/** Environment variable holding the most bytes the channel takes (`[runtime] max_stored_bytes`). */
export const CONTENT_BOUND_VARIABLE = 'SCRATCHPAD_MAX_CONTENT_BYTES';

/** Default bound of one call's streamed content: 1 GiB. */
export const DEFAULT_MAX_CONTENT_BYTES = 1024 ** 3;

/**
 * Takes the channel's bytes as they arrive. Whatever it does with them (buffer, store), it must consume the
 * iterable to its end or throw: the executor waits on the pipe while nobody reads.
 */
export type ContentReceiver = (channel: AsyncIterable<Buffer>) => Promise<void>;

/** What the channel carried. */
export interface ChannelCount {
  bytes: number;
  /** True when the executor sent more than the bound: the rest was refused and the call stopped. */
  overflowed: boolean;
}

/**
 * The channel's chunks, counted, ending early (and calling `onOverflow` once) when more than `bound` bytes
 * arrive: the bytes within the bound are yielded, the rest never is.
 */
export async function* boundedChannel(
  stream: Readable,
  bound: number,
  count: ChannelCount,
  onOverflow: () => void,
): AsyncGenerator<Buffer> {
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = bound - count.bytes;
    if (chunk.length > room) {
      if (room > 0) yield chunk.subarray(0, room);
      count.bytes += Math.max(0, room);
      count.overflowed = true;
      onOverflow();
      stream.destroy();
      return;
    }
    count.bytes += chunk.length;
    yield chunk;
  }
}

/** A receiver that keeps the channel's bytes in memory (for callers that want `content` in the outcome). */
export function bufferingReceiver(): { receive: ContentReceiver; bytes(): Buffer } {
  const chunks: Buffer[] = [];
  return {
    async receive(channel) {
      for await (const chunk of channel) chunks.push(chunk);
    },
    bytes: () => Buffer.concat(chunks),
  };
}
