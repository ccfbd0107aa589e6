/** Input up to this size is held in memory, so a write that loses a race to another writer can be retried. */
const RETRY_BUFFER_BYTES = 64 * 1024 * 1024;

/**
 * Reads `input` into memory while it stays within `limit` bytes: the bytes when it ended within the limit (a
 * write of them can be retried), otherwise an iterable of what was read followed by the rest (streamed, once).
 */
export async function bufferInput(
  input: AsyncIterable<Uint8Array | string>,
  limit = RETRY_BUFFER_BYTES,
): Promise<Uint8Array | AsyncIterable<Uint8Array>> {
  const iterator = input[Symbol.asyncIterator]();
  const pieces: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return Buffer.concat(pieces, bytes);
    const piece = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : next.value;
    pieces.push(piece);
    bytes += piece.byteLength;
    if (bytes > limit) return replay(pieces, iterator);
  }
}

async function* replay(
  read: Uint8Array[],
  rest: AsyncIterator<Uint8Array | string>,
): AsyncGenerator<Uint8Array> {
  yield* read;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : next.value;
  }
}
