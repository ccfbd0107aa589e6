/**
 * The grep worker thread: runs whole scans (`scanChunks`) for the main thread, so neither RE2 nor the reading and
 * copying of an entry's bytes run on the event loop. It asks the main thread where the bytes of each batch of
 * chunks are and reads files itself (`SourceReader`). Started by `GrepThread` (grep-thread.ts); one scan at a time.
 */
import { parentPort } from 'node:worker_threads';
import type { ChunkSource } from '../../stores/driver.js';
import { LineSearcher } from './grep-region.js';
import type { GrepScan, ScanLimits } from './grep-scanner.js';
import { scanChunks } from './grep-scanner.js';
import { SourceReader } from './grep-sources.js';

/** One scan. */
export interface GrepJob {
  pattern: string;
  ignoreCase: boolean;
  limits: ScanLimits;
  chunkCount: number;
  /** Chunks in a batch (`grepBatchChunks`): the main thread answers for `[seq, seq + batchChunks)`. */
  batchChunks: number;
  /** The chunks whose lines this scan reports (`ChunkBatches.from`, `to`). */
  from: number;
  to: number;
}

/** From the main thread: a scan to run, or the sources a scan asked for. */
export type GrepWorkerRequest =
  | { type: 'grep'; id: number; job: GrepJob }
  | { type: 'sources'; id: number; request: number; sources: ChunkSource[][] };

/**
 * To the main thread: where the bytes of chunks `[seq, seq + batchChunks)` are for each of `seqs` (answered in one
 * message; `read`: the chunks with their bytes, because a file could not be read), or the scan's end.
 */
export type GrepWorkerReply =
  | { type: 'sources'; id: number; request: number; seqs: number[]; read: boolean }
  | { type: 'done'; id: number; scan: GrepScan }
  | { type: 'error'; id: number; error: string };

/**
 * Batches whose sources are asked for ahead, at least. Asked {@link SOURCES_PER_REQUEST} to a message, up to
 * `SOURCES_AHEAD + SOURCES_PER_REQUEST - 1` (7) are outstanding at once: their bytes, when the store hands bytes
 * over (inline or in-memory chunks), are 4 MiB a batch, up to 28 MiB.
 */
const SOURCES_AHEAD = 4;
/**
 * Batches whose sources one message asks for: each message wakes the main thread, which on a 2-core machine
 * takes the core from this one or from the read-ahead (decision 002).
 */
const SOURCES_PER_REQUEST = 4;

let searcher: LineSearcher | undefined;
const reader = new SourceReader();
const answers = new Map<number, (sources: ChunkSource[][]) => void>();
let nextRequest = 0;

parentPort?.on('message', (message: GrepWorkerRequest) => {
  if (message.type === 'sources') {
    answers.get(message.request)?.(message.sources);
    answers.delete(message.request);
    return;
  }
  void run(message.id, message.job).then(
    (scan) => post({ type: 'done', id: message.id, scan }),
    (error: unknown) =>
      post({ type: 'error', id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});

function post(reply: GrepWorkerReply): void {
  parentPort?.postMessage(reply);
}

async function run(id: number, job: GrepJob): Promise<GrepScan> {
  const size = job.batchChunks;
  if (!searcher || searcher.source !== job.pattern || searcher.ignoreCase !== job.ignoreCase) {
    searcher = new LineSearcher(job.pattern, job.ignoreCase);
  }
  const ask = (seqs: number[], read: boolean): Promise<ChunkSource[][]> =>
    new Promise((resolve) => {
      const request = nextRequest++;
      answers.set(request, resolve);
      post({ type: 'sources', id, request, seqs, read });
    });
  // The sources of the next batches are asked for before this one is read and searched, so the main thread's
  // answers never keep this thread waiting (one batch ahead, it waited about a fifth of a 256 MiB scan).
  const asked = new Map<number, Promise<ChunkSource[]>>();
  /** Asks for the sources of `seq` and of the batches after it in the range, in one message. */
  const askFrom = (seq: number): void => {
    const seqs = [seq];
    for (let next = seq + size; next < job.to && seqs.length < SOURCES_PER_REQUEST; next += size) {
      if (asked.has(next)) break;
      seqs.push(next);
    }
    const answer = ask(seqs, false);
    seqs.forEach((each, index) => {
      asked.set(
        each,
        answer.then((batches) => batches[index] ?? []),
      );
    });
  };
  const batch = async (seq: number) => {
    if (!asked.has(seq)) askFrom(seq);
    const sources = await (asked.get(seq) as Promise<ChunkSource[]>);
    asked.delete(seq);
    for (let ahead = 1; ahead <= SOURCES_AHEAD; ahead++) {
      const next = seq + ahead * size;
      if (next < job.to && !asked.has(next)) askFrom(next);
    }
    // Bytes in database rows are fetched ahead too (the next batch's), while this batch is searched.
    void asked.get(seq + size)?.then((found) => reader.prefetch(found));
    const chunks = (await reader.load(sources)) ?? (await reader.load((await ask([seq], true))[0] ?? []));
    if (!chunks) throw new Error(`The bytes of chunks ${seq}+ could not be read.`);
    return chunks;
  };
  try {
    return await scanChunks(
      { chunkCount: job.chunkCount, size, from: job.from, to: job.to, batch },
      searcher,
      job.limits,
    );
  } finally {
    await reader.release();
  }
}
