import { Buffer } from 'node:buffer';
import type { Redactor } from '../../core/redaction/redactor.js';
import { isUtf8Bytes, utf8SafeCut } from '../../core/utf8.js';
import { type ContentInput, contentPieces } from './content-input.js';

/** Text held before it is redacted and passed on: secrets are found within a window this large. */
const WINDOW = 1 << 20;
const BEGIN = Buffer.from('-----BEGIN');
const END = Buffer.from('-----END');

/**
 * Content to store with its secrets redacted (the host's `redaction.store`). A string stays a string and valid
 * UTF-8 bytes are redacted whole; a stream is redacted a window (about 1 MiB, cut at a line end, never inside an
 * open PEM block) at a time, so its memory stays bounded. Bytes that are not UTF-8 (binary) pass unchanged.
 */
export async function redactContent(content: ContentInput, redactor: Redactor): Promise<ContentInput> {
  if (!redactor.enabled) return content;
  if (typeof content === 'string') return redactor.redact(content);
  if (content instanceof Uint8Array || content instanceof ArrayBuffer) {
    const bytes = content instanceof Uint8Array ? content : new Uint8Array(content);
    return isUtf8Bytes(bytes)
      ? Buffer.from(await redactor.redact(Buffer.from(bytes).toString('utf8')))
      : content;
  }
  return redactPieces(contentPieces(content), redactor);
}

async function* redactPieces(
  pieces: AsyncIterable<Uint8Array>,
  redactor: Redactor,
): AsyncGenerator<Uint8Array> {
  let held = Buffer.alloc(0);
  let binary = false;
  for await (const piece of pieces) {
    if (binary) {
      yield piece;
      continue;
    }
    held = held.byteLength === 0 ? Buffer.from(piece) : Buffer.concat([held, piece]);
    while (held.byteLength >= 2 * WINDOW) {
      const cut = windowEnd(held);
      const head = held.subarray(0, cut);
      if (!isUtf8Bytes(head)) {
        binary = true;
        yield held;
        held = Buffer.alloc(0);
        break;
      }
      yield Buffer.from(await redactor.redact(head.toString('utf8')));
      held = held.subarray(cut);
    }
  }
  if (held.byteLength === 0) return;
  yield isUtf8Bytes(held) ? Buffer.from(await redactor.redact(held.toString('utf8'))) : held;
}

/** Where the next window ends: after the last line end of the first 2 windows, before an unclosed PEM block. */
function windowEnd(held: Buffer): number {
  const limit = 2 * WINDOW;
  const lastNewline = held.lastIndexOf(10, limit - 1);
  let cut = lastNewline >= WINDOW / 2 ? lastNewline + 1 : utf8SafeCut(held, limit);
  const begin = held.lastIndexOf(BEGIN, cut - 1);
  if (begin > 0 && begin > held.lastIndexOf(END, cut - 1)) {
    const lineStart = held.lastIndexOf(10, begin) + 1;
    if (lineStart > 0) cut = lineStart;
  }
  return cut;
}
