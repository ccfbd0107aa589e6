import { Buffer } from 'node:buffer';
import { eventLoopSlices } from '../../core/event-loop-slices.js';
import { countCodePoints, countNewlines, isAsciiBytes } from '../../core/utf8.js';

/** A text encoded to UTF-8 once, with the counts the store will record for it. */
export interface EncodedText {
  /** The UTF-8 bytes (a lone surrogate becomes U+FFFD, as the store writes it). */
  bytes: Buffer;
  /** Code points, as the store counts them. */
  chars: number;
  /** Lines, as the store counts them (split on `\n`, a last line without one counts). */
  lines: number;
}

/** Options for {@link encodeText}. */
export interface EncodeTextOptions {
  /** UTF-16 code units encoded at once (default 1 Mi). */
  pieceUnits?: number;
  /** The longest the encoding runs before it gives the event loop a turn, in milliseconds (default 20). */
  sliceMs?: number;
}

const PIECE_UNITS = 1 << 20;
const SLICE_MS = 20;

/**
 * Encodes `text` to UTF-8 once, piece by piece, counting its code points and newlines in the same pass, and gives
 * the event loop a turn every `sliceMs`: a 100 MB text neither stalls the process nor is encoded twice (the bytes go
 * to the store as they are). Pieces never split a surrogate pair. The pieces' sizes are read first, so the bytes are
 * written once, straight into one buffer of the exact size: no buffer per piece and no copy of them into the whole,
 * which on a large text cost as much as the encoding (fresh memory is slow to touch the first time).
 */
export async function encodeText(text: string, options: EncodeTextOptions = {}): Promise<EncodedText> {
  const pieceUnits = Math.max(2, options.pieceUnits ?? PIECE_UNITS);
  const turn = eventLoopSlices(options.sliceMs ?? SLICE_MS);
  const ends: number[] = [];
  let total = 0;
  for (let start = 0; start < text.length; ) {
    await turn();
    let end = Math.min(text.length, start + pieceUnits);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    // A lone surrogate counts 3 bytes here as it is written: U+FFFD.
    total += Buffer.byteLength(text.slice(start, end), 'utf8');
    ends.push(end);
    start = end;
  }
  const bytes = Buffer.allocUnsafe(total);
  let chars = 0;
  let newlines = 0;
  let offset = 0;
  let start = 0;
  for (let index = 0; index < ends.length; index++) {
    await turn();
    const end = ends[index] as number;
    const written = bytes.write(text.slice(start, end), offset, 'utf8');
    const piece = bytes.subarray(offset, offset + written);
    chars += isAsciiBytes(piece) ? written : countCodePoints(piece);
    newlines += countNewlines(piece);
    offset += written;
    start = end;
  }
  const lines = total === 0 ? 0 : newlines + (bytes[total - 1] === 10 ? 0 : 1);
  return { bytes, chars, lines };
}
