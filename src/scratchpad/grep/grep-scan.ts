import type { Chunk } from '../../core/chunk.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatCount } from '../../core/format.js';
import { compilePattern } from '../../core/regex.js';
import { countCodePoints, countNewlines, decodeUtf8, isAsciiBytes } from '../../core/utf8.js';
import type { ChunkCursor } from '../reading/chunk-cursor.js';
import { lineEndAt, type RegionMatches, type RegionQuery } from './grep-region.js';
import { GrepDeadlineError, type GrepThread, grepThreads } from './grep-thread.js';

/** Options for a grep over one entry. */
export interface GrepOptions {
  /** A regular expression (RE2 syntax: JavaScript-like without lookaround or backreferences). */
  pattern: string;
  ignoreCase?: boolean;
  /** Matching lines to return (default 100). Counting continues past it unless `stopAtMax`. */
  maxMatches?: number;
  /** Lines of context before and after each match (default 0, at most 50). */
  context?: number;
  /** Longer matching lines are clipped to a window around the match (default 500 characters). */
  maxLineChars?: number;
  /** Stop scanning once `maxMatches` lines were found instead of counting them all. */
  stopAtMax?: boolean;
  /** Hard bound on the scan (default 10 s); past it the grep fails with `REGEX_TIMEOUT`. */
  timeoutMs?: number;
}

/** One matching line. */
export interface GrepMatch {
  /** 1-based line number. */
  line: number;
  /** Code point offset of the first match on the line, from the start of the entry. */
  char: number;
  /** The line (without its `\n`), clipped around the match when longer than `maxLineChars`. */
  text: string;
  clipped: boolean;
}

/** Raw scan result, before context lines are added. */
export interface GrepScan {
  matches: GrepMatch[];
  /** Matching lines found (all of them unless `stopAtMax` stopped the scan). */
  total: number;
  /** True when the scan covered the whole entry. */
  complete: boolean;
}

const BATCH = 16;
const MAX_CARRY = 8 * 1024 * 1024;

/** Compiles and validates grep options once. */
export function prepareGrep(options: GrepOptions): {
  pattern: string;
  ignoreCase: boolean;
  max: number;
  context: number;
  maxLineChars: number;
  timeoutMs: number;
} {
  const max = options.maxMatches ?? 100;
  const context = options.context ?? 0;
  const maxLineChars = options.maxLineChars ?? 500;
  const timeoutMs = options.timeoutMs ?? 10_000;
  for (const [what, value, min, limit] of [
    ['maxMatches', max, 1, 100_000],
    ['context', context, 0, 50],
    ['maxLineChars', maxLineChars, 20, 1_000_000],
    ['timeoutMs', timeoutMs, 1, 3_600_000],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < min || value > limit) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `${what} must be an integer from ${min} to ${formatCount(limit)}, got ${String(value)}.`,
        {
          details: { [what]: value },
        },
      );
    }
  }
  const ignoreCase = options.ignoreCase ?? false;
  compilePattern(options.pattern, { ignoreCase });
  return {
    pattern: options.pattern,
    ignoreCase,
    max,
    context,
    maxLineChars,
    timeoutMs,
  };
}

/** Consecutive chunks whose bytes sit back to back in memory, seen as one piece (no copy). */
interface Piece {
  data: Buffer;
  charStart: number;
  chars: number;
  newlines: number;
  ascii: boolean;
}

/**
 * Scans a text entry chunk by chunk for lines that match. Memory stays O(batch of chunks + one line); a line
 * longer than 8 MB is searched in windows. Only a line that straddles two reads is joined. The matching runs in
 * a worker thread (`grep-thread.ts`), so no pattern blocks the event loop, and the time bound is exact: at
 * `timeoutMs` the grep fails with `REGEX_TIMEOUT` whatever the worker is doing.
 */
export async function scanLines(
  cursor: ChunkCursor,
  prepared: ReturnType<typeof prepareGrep>,
  stopAtMax: boolean,
): Promise<GrepScan> {
  const deadline = Date.now() + prepared.timeoutMs;
  let thread: GrepThread | undefined;
  const find = async (
    buffer: Buffer,
    query: RegionQuery,
    lend: boolean,
  ): Promise<RegionMatches & { buffer?: Buffer }> => {
    thread ??= await grepThreads.acquire();
    return thread.find(prepared.pattern, prepared.ignoreCase, buffer, query, deadline, lend);
  };
  try {
    return await scanWith(cursor, prepared, stopAtMax, deadline, find);
  } catch (error) {
    if (error instanceof GrepDeadlineError) throw timeout(cursor.record.name, prepared.timeoutMs);
    throw error;
  } finally {
    if (thread) grepThreads.release(thread);
  }
}

async function scanWith(
  cursor: ChunkCursor,
  prepared: ReturnType<typeof prepareGrep>,
  stopAtMax: boolean,
  deadline: number,
  find: (buffer: Buffer, query: RegionQuery, lend: boolean) => Promise<RegionMatches & { buffer?: Buffer }>,
): Promise<GrepScan> {
  const { max, maxLineChars } = prepared;
  const record = cursor.record;
  const matches: GrepMatch[] = [];
  let total = 0;
  let lastReported = 0;
  let line = 1;

  // The start of a line that did not end in the pieces read so far (views, joined when the line ends).
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let carryChar = 0;
  let carryAscii = true;

  // The batch after the one being searched, read while the worker searches.
  let next: { seq: number; chunks: Promise<Chunk[]> | undefined } | undefined;
  const prefetch = (): void => {
    if (!next || next.chunks || next.seq >= record.chunkCount) return;
    next.chunks = cursor.chunks(next.seq, next.seq + BATCH);
    // Awaited by the loop; until then a failure must not be an unhandled rejection.
    next.chunks.catch(() => {});
  };

  const searchRegion = async (
    region: Buffer,
    regionEnd: number,
    charStart: number,
    ascii: boolean,
    firstLine: number,
    last = false,
    lend = false,
  ): Promise<boolean> => {
    const query = {
      end: regionEnd,
      last,
      // One more than needed: the first line found may be the one a previous window already reported.
      exact: Math.max(0, max - matches.length) + 1,
      limit: stopAtMax ? Math.max(0, max - matches.length) + 2 : Number.POSITIVE_INFINITY,
    };
    const searching = find(region, query, lend);
    // The worker has the region: read the next batch meanwhile (the reads and the matching overlap).
    prefetch();
    const found = await searching;
    const buffer = found.buffer ?? region;
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

  const takeCarry = (tail?: Buffer): { joined: Buffer; own: boolean } => {
    const parts = tail ? [...carry, tail] : carry;
    // Joined into a buffer of its own, which goes to the worker and back without another copy.
    const joined =
      parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, carryBytes + (tail?.byteLength ?? 0));
    carry = [];
    carryBytes = 0;
    return { joined, own: parts.length > 1 };
  };

  for (let seq = 0; seq < record.chunkCount; seq += BATCH) {
    if (Date.now() > deadline) throw new GrepDeadlineError();
    const batch = (next?.seq === seq ? next.chunks : undefined) ?? cursor.chunks(seq, seq + BATCH);
    next = { seq: seq + BATCH, chunks: undefined };
    for (const piece of contiguousPieces(await batch)) {
      const data = piece.data;
      let offset = 0;
      if (carryBytes > 0) {
        const newline = data.indexOf(10);
        if (newline === -1) {
          carryAscii = carryAscii && piece.ascii;
          if (carryBytes + data.byteLength < MAX_CARRY) {
            carry.push(data);
            carryBytes += data.byteLength;
            continue;
          }
          // A line longer than MAX_CARRY: search this window of it and go on with the next one.
          const window = takeCarry(data);
          const size = window.joined.byteLength;
          if (!(await searchRegion(window.joined, size, carryChar, carryAscii, line, false, window.own)))
            return { matches, total, complete: false };
          continue;
        }
        // The line that straddles the previous pieces and this one: the only bytes copied.
        offset = newline + 1;
        const straddling = takeCarry(data.subarray(0, offset));
        const size = straddling.joined.byteLength;
        const ascii = carryAscii && piece.ascii;
        if (!(await searchRegion(straddling.joined, size, carryChar, ascii, line, false, straddling.own)))
          return { matches, total, complete: false };
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
          carry = [rest];
          carryBytes = rest.byteLength;
          carryChar = restChar;
          carryAscii = piece.ascii;
        }
        continue;
      }
      const regionEnd = lastNewline === -1 ? rest.byteLength : lastNewline + 1;
      if (!(await searchRegion(rest, regionEnd, restChar, piece.ascii, line)))
        return { matches, total, complete: false };
      if (lastNewline !== -1) line += piece.newlines - (offset === 0 ? 0 : 1);
      if (regionEnd < rest.byteLength) {
        const tail = rest.subarray(regionEnd);
        carry = [tail];
        carryBytes = tail.byteLength;
        carryAscii = piece.ascii || isAsciiBytes(tail);
        // The carry ends where the piece ends: count back from there (O(carry), not O(piece)).
        carryChar = piece.charStart + piece.chars - (carryAscii ? tail.byteLength : countCodePoints(tail));
      }
    }
    cursor.forget(seq, seq + BATCH);
  }
  if (carryBytes > 0) {
    const rest = takeCarry();
    const size = rest.joined.byteLength;
    if (!(await searchRegion(rest.joined, size, carryChar, carryAscii, line, true, rest.own)))
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
      charStart: chunk.charStart,
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

function timeout(name: string, timeoutMs: number): ScratchpadError {
  return new ScratchpadError(
    'REGEX_TIMEOUT',
    `Grep on "${name}" stopped after ${formatCount(timeoutMs)} ms.`,
    {
      hint: 'Use a more specific pattern, or read a line range first and search within it.',
      details: { timeoutMs },
    },
  );
}
