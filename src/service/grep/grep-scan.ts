import { ScratchpadError } from '../../core/errors.js';
import { formatCount } from '../../core/format.js';
import { compilePattern } from '../../core/regex.js';
import type { ChunkSource } from '../../stores/driver.js';
import type { ChunkCursor } from '../reading/chunk-cursor.js';
import { type GrepScan, grepBatchChunks } from './grep-scanner.js';
import { GrepDeadlineError, grepThreads } from './grep-thread.js';
import type { GrepOptions } from './grep-types.js';

export type { GrepScan } from './grep-scanner.js';
export type { GrepMatch, GrepOptions } from './grep-types.js';

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
 * Entries of at least this many batches (16 MiB of 256 KiB chunks) are scanned by two threads when the pool allows
 * two per grep (`GrepThreadPool.threadsPerGrep`) and a second one is free.
 */
const SPLIT_BATCHES = 4;

/**
 * Scans a text entry for lines that match, in worker threads (`grep-scanner.ts` run by `grep-worker.ts`), so no
 * pattern and no size blocks the event loop: this thread only looks up where each batch of chunks is (a file the
 * worker reads itself, or bytes it hands over). A large entry is cut in two halves at a batch boundary, each
 * scanned by its own thread when the machine has the cores and a second thread is free (the lines that start in each half; see
 * `ChunkBatches.from`), and the two answers are joined in order. The time bound is exact: at `timeoutMs` the grep
 * fails with `REGEX_TIMEOUT` whatever the workers are doing.
 */
export async function scanLines(
  cursor: ChunkCursor,
  prepared: ReturnType<typeof prepareGrep>,
  stopAtMax: boolean,
): Promise<GrepScan> {
  const deadline = Date.now() + prepared.timeoutMs;
  const chunkCount = cursor.record.chunkCount;
  const size = grepBatchChunks(cursor.record.bytes, chunkCount);
  const threads = [await grepThreads.acquire()];
  const second =
    chunkCount >= SPLIT_BATCHES * size && grepThreads.threadsPerGrep > 1
      ? grepThreads.tryAcquire()
      : undefined;
  if (second) threads.push(second);
  const half = Math.ceil(chunkCount / 2 / size) * size;
  // Reads through the store run one at a time: the two threads' batches overlap by a chunk, and one read's
  // `forget` must not drop a chunk the other read found in the cursor's cache.
  let storeReads: Promise<unknown> = Promise.resolve();
  const sources = async (seq: number, read: boolean): Promise<ChunkSource[]> => {
    if (!read) return cursor.sources(seq, seq + size);
    // The worker could not read a file: read through the store, which says why (or gives the bytes).
    const chunks = storeReads.then(async () => {
      const chunks = await cursor.chunks(seq, seq + size);
      cursor.forget(seq, seq + size);
      return chunks;
    });
    storeReads = chunks.catch(() => {});
    return chunks;
  };
  const job = {
    pattern: prepared.pattern,
    ignoreCase: prepared.ignoreCase,
    limits: { max: prepared.max, maxLineChars: prepared.maxLineChars, stopAtMax },
    chunkCount,
    batchChunks: size,
  };
  try {
    const scans = await Promise.all(
      threads.map((thread, index) => {
        const range =
          threads.length === 1
            ? { from: 0, to: chunkCount }
            : index === 0
              ? { from: 0, to: half }
              : { from: half, to: chunkCount };
        return thread.scan({ ...job, ...range }, sources, deadline).catch((error: unknown) => {
          // One scan failed: the grep fails, and the other scan stops at once.
          for (const other of threads) if (other !== thread) other.cancel();
          throw error;
        });
      }),
    );
    return joinScans(scans, prepared.max, stopAtMax);
  } catch (error) {
    if (error instanceof GrepDeadlineError) throw timeout(cursor.record.name, prepared.timeoutMs);
    throw error;
  } finally {
    for (const thread of threads) grepThreads.release(thread);
  }
}

/** The scans of consecutive ranges as one scan of the whole: matches in order, counts added. */
function joinScans(scans: readonly GrepScan[], max: number, stopAtMax: boolean): GrepScan {
  const matches: GrepScan['matches'] = [];
  let total = 0;
  let complete = true;
  for (const scan of scans) {
    // A stopped scan found more than `max` lines already: what follows it does not count.
    if (!complete) break;
    matches.push(...scan.matches.slice(0, max - matches.length));
    total += scan.total;
    complete = scan.complete;
  }
  // As one scan stops: at the line after the first `max`.
  if (stopAtMax && total > max) return { matches, total: max + 1, complete: false };
  return { matches, total, complete };
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
