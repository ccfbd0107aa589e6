import { Buffer, isAscii, isUtf8 } from 'node:buffer';

/** A Buffer view over `bytes` without copying. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** True when every byte is < 0x80 (then bytes = code points). */
export function isAsciiBytes(bytes: Uint8Array): boolean {
  return bytes.byteLength === 0 || isAscii(bytes);
}

/** True when `bytes` is well-formed UTF-8. */
export function isUtf8Bytes(bytes: Uint8Array): boolean {
  return bytes.byteLength === 0 || isUtf8(bytes);
}

/** Code points in `bytes[start, end)` of UTF-8 text: every byte that is not a continuation byte starts one. */
export function countCodePoints(bytes: Uint8Array, start = 0, end = bytes.byteLength): number {
  let count = 0;
  let index = start;
  // Byte by byte up to a 4-byte boundary, then a word at a time (about 4x faster on long runs), then the rest.
  for (; index < end && ((bytes.byteOffset + index) & 3) !== 0; index++) {
    if (((bytes[index] as number) & 0xc0) !== 0x80) count++;
  }
  const words = (end - index) >> 2;
  if (words > 0) {
    const view = new Int32Array(bytes.buffer, bytes.byteOffset + index, words);
    let continuations = 0;
    let word = 0;
    // Four words per step, summing per-byte flags in the four byte lanes of one integer and folding the lanes
    // only every LANE_STEPS steps (a lane gains at most 4 per step, so it stays below 256): about 1.7x faster
    // than folding every word, which matters because every written chunk of non-ASCII text is counted.
    const unrolled = words - (words & 3);
    while (word < unrolled) {
      const stop = Math.min(unrolled, word + LANE_STEPS * 4);
      let lanes = 0;
      for (; word < stop; word += 4) {
        lanes +=
          continuationFlags(view[word] as number) +
          continuationFlags(view[word + 1] as number) +
          continuationFlags(view[word + 2] as number) +
          continuationFlags(view[word + 3] as number);
      }
      continuations += (lanes & 0xff) + ((lanes >>> 8) & 0xff) + ((lanes >>> 16) & 0xff) + (lanes >>> 24);
    }
    for (; word < words; word++) continuations += continuationBytes(view[word] as number);
    count += words * 4 - continuations;
    index += words * 4;
  }
  for (; index < end; index++) {
    if (((bytes[index] as number) & 0xc0) !== 0x80) count++;
  }
  return count;
}

/** Steps of four words summed into byte lanes before folding: 63 * 4 = 252 < 256. */
const LANE_STEPS = 63;

/** 1 in each byte lane of `word` that holds a UTF-8 continuation byte (`10xxxxxx`), else 0. */
function continuationFlags(word: number): number {
  return (word & ~(word << 1) & 0x80808080) >>> 7;
}

/** How many of the 4 bytes of `word` are UTF-8 continuation bytes (`10xxxxxx`), whatever the byte order. */
function continuationBytes(word: number): number {
  // One flag per byte in bit 7 (bit 7 set, bit 6 clear), moved to bit 0 and summed into the top byte.
  return Math.imul((word & ~(word << 1) & 0x80808080) >>> 7, 0x01010101) >>> 24;
}

/** `\n` bytes in `bytes[start, end)`. */
export function countNewlines(bytes: Uint8Array, start = 0, end = bytes.byteLength): number {
  const buffer = asBuffer(bytes);
  let count = 0;
  let position = buffer.indexOf(10, start);
  while (position !== -1 && position < end) {
    count++;
    position = buffer.indexOf(10, position + 1);
  }
  return count;
}

/**
 * Byte offset of the `charOffset`-th code point in UTF-8 `bytes` (or `bytes.byteLength` when it is the end).
 * `ascii` skips the walk when the caller knows the bytes are ASCII.
 */
export function byteOffsetOfChar(bytes: Uint8Array, charOffset: number, ascii = false): number {
  // Read the length once: the byteLength getter in a loop condition made this loop ~10x slower on Buffers.
  const length = bytes.byteLength;
  if (ascii) return Math.min(charOffset, length);
  let seen = 0;
  let index = 0;
  const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  for (; index < head; index++) {
    if (((bytes[index] as number) & 0xc0) !== 0x80) {
      if (seen === charOffset) return index;
      seen++;
    }
  }
  // Skip whole words while the code point sought starts after them, then finish byte by byte.
  const words = (length - index) >> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + index, words);
    for (let word = 0; word < words; word++) {
      const starts = 4 - continuationBytes(view[word] as number);
      if (seen + starts > charOffset) break;
      seen += starts;
      index += 4;
    }
  }
  for (; index < length; index++) {
    if (((bytes[index] as number) & 0xc0) !== 0x80) {
      if (seen === charOffset) return index;
      seen++;
    }
  }
  return length;
}

/** Byte offset just after the `count`-th `\n` in `bytes` (count ≥ 1), or -1 when there are fewer. */
export function byteOffsetAfterNewline(bytes: Uint8Array, count: number): number {
  const buffer = asBuffer(bytes);
  let position = -1;
  for (let seen = 0; seen < count; seen++) {
    position = buffer.indexOf(10, position + 1);
    if (position === -1) return -1;
  }
  return position + 1;
}

/**
 * Length of the longest prefix of `bytes` (at most `limit`) that does not end inside a UTF-8 sequence.
 * Backs off at most 3 bytes; returns `limit` for malformed input so progress is always made.
 */
export function utf8SafeCut(bytes: Uint8Array, limit: number): number {
  if (limit >= bytes.byteLength) return bytes.byteLength;
  let cut = limit;
  while (cut > 0 && limit - cut < 4 && ((bytes[cut] as number) & 0xc0) === 0x80) cut--;
  return cut === 0 || limit - cut >= 4 ? limit : cut;
}

/** Decodes UTF-8 `bytes` to a string (malformed sequences become U+FFFD). */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.byteLength): string {
  return asBuffer(bytes).toString('utf8', start, end);
}

/**
 * True when `text` has no lone UTF-16 surrogate, so its UTF-8 encoding decodes back to the same string (a lone
 * surrogate is encoded as U+FFFD).
 */
export function isWellFormedText(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** `text` with each lone UTF-16 surrogate replaced by U+FFFD (what its UTF-8 encoding holds). */
export function toWellFormedText(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}

/** Indexes (UTF-16 units) of the lone surrogates of `text`: halves of a pair without the other half. */
export function loneSurrogates(text: string, limit = Number.POSITIVE_INFINITY): number[] {
  const found: number[] = [];
  for (let index = 0; index < text.length && found.length < limit; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(index + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) index++;
    else found.push(index);
  }
  return found;
}

/** Number of code points in a JS string (a lone surrogate counts as one, as it becomes U+FFFD when stored). */
export function codePointLength(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        index++;
      }
    }
  }
  return count;
}

/**
 * Splits a (possibly huge) string into UTF-8 encoded pieces of about `pieceSize` code units, never splitting a
 * surrogate pair, so that a 1 GB string is never encoded in one piece.
 */
export function* encodeStringPieces(text: string, pieceSize: number): Generator<Buffer> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + pieceSize);
    if (end < text.length) {
      const last = text.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff) end = end - 1 > start ? end - 1 : end + 1;
    }
    yield Buffer.from(text.slice(start, end), 'utf8');
    start = end;
  }
}
