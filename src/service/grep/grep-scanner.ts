import type { Chunk } from '../../core/chunk.js';
import { countCodePoints, countNewlines, decodeUtf8, isAsciiBytes } from '../../core/utf8.js';
import { type LineSearcher, lineEndAt } from './grep-region.js';
import type { GrepMatch } from './grep-types.js';

/** Raw scan result, before context lines are added. */
export interface GrepScan {
  matches: GrepMatch[];
  /** Matching lines found (all of them unless `stopAtMax` stopped the scan). */
  total: number;
  /** True when the scan covered the whole entry. */
  complete: boolean;
}

/** What a scan reports and where it stops. */
export interface ScanLimits {
  /** Matching lines returned. */
  max: number;
  maxLineChars: number;
  /** Stop once `max` lines were found instead of counting them all. */
  stopAtMax: boolean;
}

/** The chunks of one entry version, `size` at a time, and the part of them a scan covers. */
export interface ChunkBatches {
  chunkCount: number;
  /** Chunks in a batch ({@link grepBatchChunks}). */
  size: number;
  /**
   * The scan reports the lines that start in chunks `[from, to)` (`from` and `to` multiples of `size`, or `to`
   * the chunk count): after `from > 0` it skips the end of the line that started before, and it reads on past
   * `to` only to finish the line that runs over. Scans of adjacent ranges (one thread each) together report
   * every line once.
   */
  from: number;
  to: number;
  /**
   * Chunks `[seq, seq + size)`. Their bytes may be overwritten by the next call (a reused read buffer): the scan
   * copies what it keeps.
   */
  batch(seq: number): Promise<Chunk[]>;
}

/** Chunks a scan asks for at once, at the least: 16 of the default 256 KiB, 4 MiB. */
const GREP_BATCH = 16;

/** Bytes a batch aims at when its chunks are smaller than the default (about 16 chunks of 256 KiB). */
const GREP_BATCH_BYTES = 4 * 1024 * 1024;

/** Chunks under this many bytes on average (tests' tiny ones) stay {@link GREP_BATCH} to a batch. */
const SCALED_CHUNK_MIN_BYTES = 16 * 1024;

/**
 * Chunks per batch for an entry of `bytes` in `chunkCount` chunks: {@link GREP_BATCH}, or, for chunks smaller
 * than the default but of at least 16 KiB (PostgreSQL's 64 KiB), as many as make about 4 MiB, up to 256. A batch
 * is a lookup on the event loop and, on PostgreSQL, a round trip of the worker's: 16 chunks of 64 KiB to a batch
 * made a 1 GiB grep there a third slower (375 against 566 MiB/s).
 */
export function grepBatchChunks(bytes: number, chunkCount: number): number {
  if (chunkCount <= 0) return GREP_BATCH;
  const average = bytes / chunkCount;
  if (average < SCALED_CHUNK_MIN_BYTES) return GREP_BATCH;
  return Math.min(16 * GREP_BATCH, Math.max(GREP_BATCH, Math.floor(GREP_BATCH_BYTES / average)));
}
const MAX_CARRY = 8 * 1024 * 1024;

/** Consecutive chunks whose bytes sit back to back in memory, seen as one piece (no copy). */
interface Piece {
  data: Buffer;
  byteStart: number;
  charStart: number;
  lineStart: number;
  chars: number;
  newlines: number;
  ascii: boolean;
}

/**
 * Scans a text entry chunk by chunk for lines that match. Memory stays O(batch of chunks + one line); a line
 * longer than 8 MB is searched in windows. Only a line that straddles two pieces is copied. Synchronous between
 * batches: it runs in the grep worker (`grep-worker.ts`), never on the event loop.
 */
export async function scanChunks(
  source: ChunkBatches,
  searcher: LineSearcher,
  { max, maxLineChars, stopAtMax }: ScanLimits,
): Promise<GrepScan> {
  const matches: GrepMatch[] = [];
  let total = 0;
  let lastReported = 0;
  // Set from the first piece's line (the scan may start inside the entry).
  let line = 1;
  let first = true;
  // Skipping the end of a line that started before `from` (another scan reports it).
  let skipping = source.from > 0;
  // The bytes read so far end inside a line.
  let openLine = false;

  // The start of a line that did not end in the pieces read so far (copies: the pieces' memory is reused).
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let carryChar = 0;
  let carryAscii = true;

  const searchRegion = (
    buffer: Buffer,
    regionEnd: number,
    charStart: number,
    ascii: boolean,
    firstLine: number,
    last = false,
  ): boolean => {
    const found = searcher.find(buffer, {
      end: regionEnd,
      last,
      // One more than needed: the first line found may be the one a previous window already reported.
      exact: Math.max(0, max - matches.length) + 1,
      limit: stopAtMax ? Math.max(0, max - matches.length) + 2 : Number.POSITIVE_INFINITY,
    });
    let position = 0;
    let lineAtPosition = firstLine;
    for (const at of found.at) {
      const lineStart = at === 0 ? 0 : Math.max(position, buffer.lastIndexOf(10, at - 1) + 1);
      const lineEnd = lineEndAt(buffer, at, regionEnd);
      // Line numbers cost a newline count since the last match; past maxMatches only the count of lines is
      // needed, and a match then lies on a new line unless it is on the region's first line (a long line cut
      // into windows), whose number is known.
      const lineNumber =
        matches.length < max
          ? lineAtPosition + countNewlines(buffer, position, lineStart)
          : lineStart === 0
            ? firstLine
            : -1;
      if (lineNumber === -1 || lineNumber !== lastReported) {
        lastReported = lineNumber;
        total++;
        if (matches.length < max) {
          const charOfLine = charStart + (ascii ? lineStart : countCodePoints(buffer, 0, lineStart));
          const column = ascii ? at - lineStart : countCodePoints(buffer, lineStart, at);
          matches.push({
            line: lineNumber,
            char: charOfLine + column,
            ...clipLine(buffer, lineStart, lineEnd, at, maxLineChars),
          });
        } else if (stopAtMax) {
          return false;
        }
      }
      position = lineEnd + 1;
      lineAtPosition = lineNumber + 1;
    }
    // The lines counted past the exact ones are on later lines than those, never a window's first line.
    if (found.more > 0 && stopAtMax) {
      total++;
      return false;
    }
    total += found.more;
    return true;
  };

  const keep = (bytes: Buffer): void => {
    carry.push(Buffer.from(bytes));
    carryBytes += bytes.byteLength;
  };
  const takeCarry = (tail?: Buffer): Buffer => {
    const parts = tail ? [...carry, tail] : carry;
    const joined =
      parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, carryBytes + (tail?.byteLength ?? 0));
    carry = [];
    carryBytes = 0;
    return joined;
  };

  // A scan that starts inside the entry reads from the chunk before its range, to see whether its first chunk
  // starts a line: it skips up to the first newline at or after that chunk's last byte.
  let skipFromByte = -1;
  for (let seq = skipping ? source.from - 1 : source.from; seq < source.chunkCount; seq += source.size) {
    // Past the range only the line that runs over it is finished.
    const past = seq >= source.to;
    if (past && !openLine) break;
    const chunks = await source.batch(seq);
    if (skipping && skipFromByte === -1) skipFromByte = chunks[1]?.byteStart ?? 0;
    for (const piece of contiguousPieces(chunks)) {
      const data = piece.data;
      if (data.byteLength === 0) continue;
      if (first) {
        line = piece.lineStart + 1;
        first = false;
      }
      openLine = data[data.byteLength - 1] !== 10;
      let offset = 0;
      if (skipping) {
        const from = Math.max(0, skipFromByte - 1 - piece.byteStart);
        const newline = from < data.byteLength ? data.indexOf(10, from) : -1;
        if (newline === -1) continue;
        skipping = false;
        offset = newline + 1;
        line = piece.lineStart + 1 + countNewlines(data, 0, offset);
      } else if (past && carryBytes === 0) {
        // The rest of a line longer than MAX_CARRY, after a window of it.
        const newline = data.indexOf(10);
        if (newline === -1) {
          keep(data);
          carryChar = piece.charStart;
          carryAscii = piece.ascii;
          continue;
        }
        const done = searchRegion(data, newline + 1, piece.charStart, piece.ascii, line);
        return { matches, total, complete: done };
      } else if (carryBytes > 0) {
        const newline = data.indexOf(10);
        if (newline === -1) {
          carryAscii = carryAscii && piece.ascii;
          if (carryBytes + data.byteLength < MAX_CARRY) {
            keep(data);
            continue;
          }
          // A line longer than MAX_CARRY: search this window of it and go on with the next one.
          const window = takeCarry(data);
          if (!searchRegion(window, window.byteLength, carryChar, carryAscii, line))
            return { matches, total, complete: false };
          continue;
        }
        // The line that straddles the previous pieces and this one: the only bytes joined.
        offset = newline + 1;
        const straddling = takeCarry(data.subarray(0, offset));
        const ascii = carryAscii && piece.ascii;
        const done = searchRegion(straddling, straddling.byteLength, carryChar, ascii, line);
        if (!done || past) return { matches, total, complete: done };
        line++;
      }
      const rest = offset === 0 ? data : data.subarray(offset);
      const restChar =
        offset === 0
          ? piece.charStart
          : piece.charStart + (piece.ascii ? offset : countCodePoints(data, 0, offset));
      const lastNewline = rest.lastIndexOf(10);
      if (lastNewline === -1 && rest.byteLength < MAX_CARRY) {
        if (rest.byteLength > 0) {
          keep(rest);
          carryChar = restChar;
          carryAscii = piece.ascii;
        }
        continue;
      }
      const regionEnd = lastNewline === -1 ? rest.byteLength : lastNewline + 1;
      if (!searchRegion(rest, regionEnd, restChar, piece.ascii, line))
        return { matches, total, complete: false };
      // The line the piece's last byte is on (the next piece starts on it).
      line = piece.lineStart + piece.newlines + 1;
      if (regionEnd < rest.byteLength) {
        const tail = rest.subarray(regionEnd);
        keep(tail);
        carryAscii = piece.ascii || isAsciiBytes(tail);
        // The carry ends where the piece ends: count back from there (O(carry), not O(piece)).
        carryChar = piece.charStart + piece.chars - (carryAscii ? tail.byteLength : countCodePoints(tail));
      }
    }
  }
  if (carryBytes > 0) {
    const rest = takeCarry();
    if (!searchRegion(rest, rest.byteLength, carryChar, carryAscii, line, true))
      return { matches, total, complete: false };
  }
  return { matches, total, complete: true };
}

/** Chunks grouped into pieces of consecutive chunks whose bytes are adjacent in one buffer. */
function contiguousPieces(chunks: readonly Chunk[]): Piece[] {
  const pieces: Piece[] = [];
  let current: Piece | undefined;
  for (const chunk of chunks) {
    const data = chunk.data;
    const ascii = chunk.bytes === chunk.chars;
    if (
      current &&
      current.data.buffer === data.buffer &&
      current.data.byteOffset + current.data.byteLength === data.byteOffset
    ) {
      current.data = Buffer.from(
        data.buffer,
        current.data.byteOffset,
        current.data.byteLength + data.byteLength,
      );
      current.chars += chunk.chars;
      current.newlines += chunk.newlines;
      current.ascii = current.ascii && ascii;
      continue;
    }
    current = {
      data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      byteStart: chunk.byteStart,
      charStart: chunk.charStart,
      lineStart: chunk.lineStart,
      chars: chunk.chars,
      newlines: chunk.newlines,
      ascii,
    };
    pieces.push(current);
  }
  return pieces;
}

function clipLine(
  buffer: Buffer,
  lineStart: number,
  lineEnd: number,
  at: number,
  maxChars: number,
): { text: string; clipped: boolean } {
  // Bytes >= chars, so a line within maxChars bytes is within maxChars chars.
  if (lineEnd - lineStart <= maxChars)
    return { text: decodeUtf8(buffer, lineStart, lineEnd), clipped: false };
  const half = Math.floor(maxChars / 2);
  const beforeFrom = Math.max(lineStart, at - half * 4);
  const before = [...decodeUtf8(buffer, beforeFrom, at)];
  const kept = before.slice(Math.max(0, before.length - half));
  const afterTo = Math.min(lineEnd, at + (maxChars - kept.length) * 4);
  const after = [...decodeUtf8(buffer, at, afterTo)].slice(0, maxChars - kept.length);
  const clippedStart = beforeFrom > lineStart || kept.length < before.length;
  const clippedEnd = afterTo < lineEnd || after.length < maxChars - kept.length;
  if (!clippedStart && !clippedEnd) return { text: decodeUtf8(buffer, lineStart, lineEnd), clipped: false };
  return {
    text: `${clippedStart ? '…' : ''}${kept.join('')}${after.join('')}${clippedEnd ? '…' : ''}`,
    clipped: true,
  };
}
