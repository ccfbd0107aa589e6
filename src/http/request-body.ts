import type { IncomingMessage } from 'node:http';

/** A body read within its limit, or the fact that it was over. */
export type RequestBody = { tooLarge: false; bytes: Buffer } | { tooLarge: true; receivedBytes: number };

/** Options for {@link readRequestBody}. */
export interface ReadRequestBodyOptions {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /**
   * After the limit, how many more bytes are read and discarded so the client sees the refusal instead of a reset
   * socket (default: 8 × `maxBytes`, at least 64 MiB); past that the connection is destroyed.
   */
  maxDiscardBytes?: number;
}

/**
 * Reads a request body up to `maxBytes`, joining the chunks once at the end. A declared `Content-Length` over the
 * limit is refused without buffering anything; a body that grows past it is discarded from then on.
 */
export function readRequestBody(
  request: IncomingMessage,
  options: ReadRequestBodyOptions,
): Promise<RequestBody> {
  const { maxBytes } = options;
  const maxDiscardBytes = options.maxDiscardBytes ?? Math.max(8 * maxBytes, 64 * 1024 * 1024);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let over = Number(request.headers['content-length']) > maxBytes;
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (!over && received > maxBytes) {
        over = true;
        chunks.length = 0;
      }
      if (!over) chunks.push(chunk);
      else if (received > maxBytes + maxDiscardBytes) request.destroy();
    });
    request.once('end', () =>
      resolve(
        over
          ? { tooLarge: true, receivedBytes: received }
          : { tooLarge: false, bytes: Buffer.concat(chunks, received) },
      ),
    );
    request.once('error', reject);
    request.once('close', () => {
      if (!request.complete) reject(new Error('The client closed the connection before the body ended.'));
    });
  });
}
