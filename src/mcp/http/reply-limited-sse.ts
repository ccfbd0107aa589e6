import type { ServerResponse } from 'node:http';

/**
 * Relays a `text/event-stream` reply event by event as it arrives (progress reaches the client while the call
 * runs), holding every JSON-RPC result to `maxReplyBytes` the way the 2025-11-25 transport does: an event whose
 * `data` is over the limit is passed to `replace` (which answers with an error naming the limit) and the
 * replacement is sent instead. Events under the limit pass byte for byte.
 */
export async function relayLimitedEvents(
  body: ReadableStream<Uint8Array>,
  response: ServerResponse,
  maxReplyBytes: number,
  replace: (data: string, bytes: number) => string,
): Promise<void> {
  const decoder = new TextDecoder();
  let pending = '';
  /** Where to look for the next event boundary (text before it holds none). */
  let searchFrom = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const boundary = pending.indexOf('\n\n', searchFrom);
        if (boundary === -1) break;
        const event = pending.slice(0, boundary + 2);
        pending = pending.slice(boundary + 2);
        searchFrom = 0;
        if (!(await write(response, limitEvent(event, maxReplyBytes, replace)))) return;
      }
      searchFrom = Math.max(0, pending.length - 1);
      if (done) break;
    }
    if (pending.length > 0 && !(await write(response, limitEvent(pending, maxReplyBytes, replace)))) return;
    response.end();
  } finally {
    // A client that went away stops the relay: the rest of the reply is dropped, not buffered.
    if (response.destroyed) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** One SSE event with its `data` held to the limit (field lines other than `data` are kept). */
function limitEvent(
  event: string,
  maxReplyBytes: number,
  replace: (data: string, bytes: number) => string,
): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes: an event this short cannot be over, and needs no measuring.
  if (event.length * 3 <= maxReplyBytes) return event;
  const lines = event.replace(/\n+$/, '').split('\n');
  const data = lines
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
  const bytes = Buffer.byteLength(data, 'utf8');
  if (bytes <= maxReplyBytes) return event;
  const others = lines.filter((line) => !line.startsWith('data:'));
  return `${[...others, `data: ${replace(data, bytes)}`].join('\n')}\n\n`;
}

/** Writes `text`, waiting for the socket to drain; false when the client has gone (nothing more can be sent). */
function write(response: ServerResponse, text: string): Promise<boolean> {
  if (response.destroyed) return Promise.resolve(false);
  if (response.write(text)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = () => {
      response.off('drain', settle);
      response.off('close', settle);
      resolve(!response.destroyed);
    };
    response.once('drain', settle);
    response.once('close', settle);
  });
}
