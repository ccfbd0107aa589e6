import { Buffer } from 'node:buffer';
import { ScratchpadError } from '../../core/errors.js';
import { encodeStringPieces, isWellFormedText, loneSurrogates } from '../../core/utf8.js';

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
  if (typeof input === 'string') return encodeText(input, 0);
  if (input instanceof Uint8Array) return [input];
  if (input instanceof ArrayBuffer) return [new Uint8Array(input)];
  return undefined;
}

/** Normalizes any {@link ContentInput} into byte pieces. */
export async function* contentPieces(input: ContentInput): AsyncGenerator<Uint8Array> {
  if (typeof input === 'string') {
    yield* encodeText(input, 0);
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
    const text = new SurrogateCarry();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        yield* piecesOf(value, text);
      }
    } finally {
      reader.releaseLock();
    }
    yield* text.flush();
    return;
  }
  if (isIterable(input) || isAsyncIterable(input)) {
    const text = new SurrogateCarry();
    for await (const piece of input as AsyncIterable<string | Uint8Array>) yield* piecesOf(piece, text);
    yield* text.flush();
    return;
  }
  throw new ScratchpadError('INVALID_ARGUMENT', `Cannot write content of type ${describe(input)}.`, {
    hint: 'Pass a string, a Uint8Array/Buffer, or a stream of them. Serialize objects with JSON.stringify first.',
  });
}

/**
 * The string pieces of a stream, encoded so that a surrogate pair cut between two pieces (a piece ending with the
 * high half of 😀, the next starting with its low half) is encoded as the one character it is: a piece's last high
 * surrogate waits for the next piece.
 */
class SurrogateCarry {
  #pending = '';
  /** UTF-16 units of text encoded so far, for where a lone surrogate is. */
  #encoded = 0;

  *encode(piece: string): Generator<Uint8Array> {
    let text = this.#pending ? this.#pending + piece : piece;
    this.#pending = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#pending = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (!text) return;
    yield* encodeText(text, this.#encoded);
    this.#encoded += text.length;
  }

  /** What is held back, before bytes or at the end: a high surrogate no low one followed, which is refused. */
  *flush(): Generator<Uint8Array> {
    if (!this.#pending) return;
    const pending = this.#pending;
    this.#pending = '';
    yield* encodeText(pending, this.#encoded);
    this.#encoded += pending.length;
  }
}

/**
 * The UTF-8 pieces of `text`, which starts `before` UTF-16 units into the content. Stored text is UTF-8, which has
 * no way to hold a lone UTF-16 surrogate (half of a pair, as a cut in the middle of an emoji leaves): such text is
 * refused before anything is stored rather than stored changed (its encoding would put U+FFFD in its place).
 */
function encodeText(text: string, before: number): Generator<Buffer> {
  if (!isWellFormedText(text)) {
    const at = loneSurrogates(text, 1)[0] as number;
    const unit = text.charCodeAt(at).toString(16).toUpperCase();
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `The text has a lone UTF-16 surrogate (U+${unit}) at character ${before + at}: stored text is UTF-8, which cannot hold half of a surrogate pair.`,
      {
        hint: 'Send the whole character, or replace the half (String.prototype.toWellFormed() puts U+FFFD there); to keep exact UTF-16, store JSON.stringify(text) or bytes.',
        details: { index: before + at, codeUnit: `U+${unit}` },
      },
    );
  }
  return encodeStringPieces(text, STRING_PIECE);
}

function* piecesOf(piece: unknown, text: SurrogateCarry): Generator<Uint8Array> {
  if (typeof piece === 'string') yield* text.encode(piece);
  else if (piece instanceof Uint8Array) {
    yield* text.flush();
    yield piece;
  } else if (piece instanceof ArrayBuffer) {
    yield* text.flush();
    yield new Uint8Array(piece);
  } else {
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
