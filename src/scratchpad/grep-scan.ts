import { ScratchpadError } from '../core/errors.js';
import { formatCount } from '../core/format.js';
import { type CompiledPattern, compilePattern, findMatch, findMatchingLine } from '../core/regex.js';
import { countCodePoints, countNewlines, decodeUtf8, isAsciiBytes } from '../core/utf8.js';
import type { ChunkCursor } from './chunk-cursor.js';

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
  pattern: CompiledPattern;
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
  return {
    pattern: compilePattern(options.pattern, { ignoreCase: options.ignoreCase ?? false }),
    max,
    context,
    maxLineChars,
    timeoutMs,
  };
}

/**
 * Scans a text entry chunk by chunk for lines that match. Memory stays O(batch of chunks + one line); a line
 * longer than 8 MB is searched in windows. The scan is bounded in time.
 */
export async function scanLines(
  cursor: ChunkCursor,
  prepared: ReturnType<typeof prepareGrep>,
  stopAtMax: boolean,
): Promise<GrepScan> {
  const { pattern, max, maxLineChars, timeoutMs } = prepared;
  const deadline = Date.now() + timeoutMs;
  const record = cursor.record;
  const matches: GrepMatch[] = [];
  let total = 0;
  let lastReported = 0;

  // The buffer being searched starts at global byte `start`, code point `charStart`, line `line`.
  let carry: Buffer | undefined;
  let carryChar = 0;
  let carryAscii = true;
  let line = 1;

  const searchRegion = (
    buffer: Buffer,
    regionEnd: number,
    charStart: number,
    ascii: boolean,
    firstLine: number,
    last = false,
  ): boolean => {
    let position = 0;
    let lineAtPosition = firstLine;
    // On the last line of the entry an empty match at its very end (`$`) still belongs to that line.
    const matchLimit = last ? regionEnd + 1 : regionEnd;
    while (position < regionEnd) {
      // Past maxMatches only which lines match matters, not where on the line.
      const at =
        matches.length < max
          ? findMatch(pattern, buffer, position, matchLimit)
          : findMatchingLine(pattern, buffer, position, matchLimit);
      if (at === -1) break;
      const lineStart = at === 0 ? 0 : buffer.lastIndexOf(10, at - 1) + 1;
      const newline = buffer.indexOf(10, at);
      const lineEnd = newline === -1 || newline >= regionEnd ? regionEnd : newline;
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
    return true;
  };

  for (let seq = 0; seq < record.chunkCount; seq += BATCH) {
    if (Date.now() > deadline) throw timeout(record.name, line, total, timeoutMs);
    for (const chunk of await cursor.chunks(seq, seq + BATCH)) {
      const data = Buffer.from(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength);
      const buffer = carry ? Buffer.concat([carry, data]) : data;
      const charStart = carry ? carryChar : chunk.charStart;
      const ascii: boolean = (carry ? carryAscii : true) && chunk.bytes === chunk.chars;
      const lastNewline = buffer.lastIndexOf(10);
      if (lastNewline === -1 && buffer.byteLength < MAX_CARRY) {
        carry = buffer;
        carryChar = charStart;
        carryAscii = ascii;
        continue;
      }
      const regionEnd = lastNewline === -1 ? buffer.byteLength : lastNewline + 1;
      if (!searchRegion(buffer, regionEnd, charStart, ascii, line))
        return { matches, total, complete: false };
      // A carry never holds a newline, so the region's newlines are exactly the chunk's.
      if (lastNewline !== -1) line += chunk.newlines;
      if (regionEnd < buffer.byteLength) {
        carry = Buffer.from(buffer.subarray(regionEnd));
        carryAscii = isAsciiBytes(carry);
        // The carry ends where the chunk ends: count back from there (O(carry), not O(chunk)).
        carryChar = chunk.charStart + chunk.chars - (carryAscii ? carry.byteLength : countCodePoints(carry));
      } else {
        carry = undefined;
      }
    }
    cursor.forget(seq, seq + BATCH);
  }
  if (carry && carry.byteLength > 0) {
    if (!searchRegion(carry, carry.byteLength, carryChar, carryAscii, line, true))
      return { matches, total, complete: false };
  }
  return { matches, total, complete: true };
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

function timeout(name: string, line: number, found: number, timeoutMs: number): ScratchpadError {
  return new ScratchpadError(
    'REGEX_TIMEOUT',
    `Grep on "${name}" stopped after ${formatCount(timeoutMs)} ms at line ${formatCount(line)} (${formatCount(found)} matching lines so far).`,
    {
      hint: 'Use a more specific pattern, or read a line range first and search within it.',
      details: { line, found, timeoutMs },
    },
  );
}
