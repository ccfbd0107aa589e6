import { Buffer } from 'node:buffer';
import { ScratchpadError } from '../../core/errors.js';
import { encodeStringPieces } from '../../core/utf8.js';

/**
 * Content a caller can write: a string, bytes, or a stream of either (Node stream, web `ReadableStream`,
 * any async iterable). Strings are encoded piece by piece, so a 1 GB string is never copied whole.
 */
export type ContentInput =
  | string
  | Uint8Array
  | ArrayBuffer
  | AsyncIterable<string | Uint8Array>
  | Iterable<string | Uint8Array>
  | ReadableStream<Uint8Array | string>;

const STRING_PIECE = 1 << 20;

/** True when the input is already complete text (a string), so its kind is known to be `text`. */
export function isStringInput(input: ContentInput): input is string {
  return typeof input === 'string';
}

/**
 * The byte pieces of an input that is already whole in memory (a string, bytes), without an async generator:
 * the common small write skips its machinery. `undefined` for a stream.
 */
export function wholePieces(input: ContentInput): Iterable<Uint8Array> | undefined {
  if (typeof input === 'string') return encodeStringPieces(input, STRING_PIECE);
  if (input instanceof Uint8Array) return [input];
  if (input instanceof ArrayBuffer) return [new Uint8Array(input)];
  return undefined;
}

/** Normalizes any {@link ContentInput} into byte pieces. */
export async function* contentPieces(input: ContentInput): AsyncGenerator<Uint8Array> {
  if (typeof input === 'string') {
    yield* encodeStringPieces(input, STRING_PIECE);
    return;
  }
  if (input instanceof Uint8Array) {
    yield input;
    return;
  }
  if (input instanceof ArrayBuffer) {
    yield new Uint8Array(input);
    return;
  }
  if (isReadableStream(input)) {
    const reader = input.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield* piecesOf(value);
      }
    } finally {
      reader.releaseLock();
    }
  }
  if (isIterable(input) || isAsyncIterable(input)) {
    for await (const piece of input as AsyncIterable<string | Uint8Array>) yield* piecesOf(piece);
    return;
  }
  throw new ScratchpadError('INVALID_ARGUMENT', `Cannot write content of type ${describe(input)}.`, {
    hint: 'Pass a string, a Uint8Array/Buffer, or a stream of them. Serialize objects with JSON.stringify first.',
  });
}

function* piecesOf(piece: unknown): Generator<Uint8Array> {
  if (typeof piece === 'string') yield* encodeStringPieces(piece, STRING_PIECE);
  else if (piece instanceof Uint8Array) yield piece;
  else if (piece instanceof ArrayBuffer) yield new Uint8Array(piece);
  else {
    throw new ScratchpadError('INVALID_ARGUMENT', `A content stream yielded ${describe(piece)}.`, {
      hint: 'Streams must yield strings or bytes.',
    });
  }
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array | string> {
  return (
    typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function'
  );
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.iterator in value && !Buffer.isBuffer(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value;
}
