import { ScratchpadError } from '../../core/errors.js';
import { formatCount } from '../../core/format.js';
import { compilePattern } from '../../core/regex.js';
import type { ChunkSource } from '../../stores/driver.js';
import type { ChunkCursor } from '../reading/chunk-cursor.js';
import { GREP_BATCH, type GrepScan } from './grep-scanner.js';
import { GrepDeadlineError, grepThreads } from './grep-thread.js';

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

export type { GrepMatch, GrepScan } from './grep-scanner.js';

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

/**
 * Scans a text entry for lines that match, in a worker thread (`grep-scanner.ts` run by `grep-worker.ts`), so no
 * pattern and no size blocks the event loop: this thread only looks up where each batch of chunks is (a file the
 * worker reads itself, or bytes it hands over). The time bound is exact: at `timeoutMs` the grep fails with
 * `REGEX_TIMEOUT` whatever the worker is doing.
 */
export async function scanLines(
  cursor: ChunkCursor,
  prepared: ReturnType<typeof prepareGrep>,
  stopAtMax: boolean,
): Promise<GrepScan> {
  const deadline = Date.now() + prepared.timeoutMs;
  const thread = await grepThreads.acquire();
  const sources = async (seq: number, read: boolean): Promise<ChunkSource[]> => {
    if (!read) return cursor.sources(seq, seq + GREP_BATCH);
    // The worker could not read a file: read through the store, which says why (or gives the bytes).
    const chunks = await cursor.chunks(seq, seq + GREP_BATCH);
    cursor.forget(seq, seq + GREP_BATCH);
    return chunks;
  };
  const job = {
    pattern: prepared.pattern,
    ignoreCase: prepared.ignoreCase,
    limits: { max: prepared.max, maxLineChars: prepared.maxLineChars, stopAtMax },
    chunkCount: cursor.record.chunkCount,
  };
  try {
    return await thread.scan(job, sources, deadline);
  } catch (error) {
    if (error instanceof GrepDeadlineError) throw timeout(cursor.record.name, prepared.timeoutMs);
    throw error;
  } finally {
    grepThreads.release(thread);
  }
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
