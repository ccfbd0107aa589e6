/**
 * The search index thread of a file-backed SQLite store (started by `IndexThread`, index-thread.ts): on its own
 * connection it runs the indexing and un-indexing steps the store's loops ask for, so tokenizing chunks and
 * FTS5's segment merges at commit never run on the event loop (decision 012). A request runs steps of one
 * transaction each until `batchMs` passed, nothing is left, or a writer of the store's connection waits for the
 * lock (it then goes first). The thread waits for the lock itself (the busy timeout); the store's connection
 * waits for it without blocking.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BlobDirectory } from './blob-directory.js';
import { registerChunkTextFunction } from './chunk-text-function.js';
import { openSqliteConnection } from './sqlite-binding.js';
import { configureDatabase } from './sqlite-database.js';
import { sqliteCode } from './sqlite-errors.js';
import { SearchIndex } from './sqlite-search.js';
import { ImmediateTransaction } from './sqlite-transaction.js';

/** What the thread is started with. */
export interface IndexWorkerData {
  path: string;
  busyTimeoutMs: number;
  /** How long one step (one transaction) goes on taking more chunks (see `INDEX_STEP_MS`). */
  stepMs: number;
  /** How long one request goes on taking more steps. */
  batchMs: number;
  /** The store connection's count of writers waiting for the lock (`ImmediateTransaction.waitingWriters`). */
  waitingWriters: SharedArrayBuffer;
}

/** A step the store asks for: index some of `session`, or work off some of the un-indexing queue. */
export type IndexRequest = { id: number; kind: 'index'; session: string } | { id: number; kind: 'unindex' };

/**
 * A step's answer: how much it did, or why it failed (a SQLite code the store turns into its error); and, once,
 * that the thread is ready (`id` 0).
 */
export type IndexReply =
  | { id: 0; ready: true }
  | { id: number; done: number }
  | { id: number; error: { message: string; code: string | undefined } };

const { path, busyTimeoutMs, stepMs, batchMs, waitingWriters } = workerData as IndexWorkerData;
const writersWaiting = new Int32Array(waitingWriters);
const database = openSqliteConnection(path, { mustExist: true });
// The store's own settings: its busy timeout (this thread may block), durability, foreign keys, WAL size.
configureDatabase(database, busyTimeoutMs);
const blobs = new BlobDirectory(path);
registerChunkTextFunction(database, blobs);
const search = new SearchIndex(database, blobs);
const transaction = new ImmediateTransaction(database, busyTimeoutMs);

function step(request: IndexRequest): number {
  if (request.kind === 'index') return transaction.run(() => search.indexChunks(request.session, stepMs));
  if (!search.hasQueued()) return 0;
  return transaction.run(() => search.unindexChunks(stepMs));
}

/** Steps until `batchMs` passed, nothing is left, or a writer of the store waits; how much they did. */
function steps(request: IndexRequest): number {
  const started = performance.now();
  let done = 0;
  for (;;) {
    const did = step(request);
    done += did;
    if (did === 0 || performance.now() - started >= batchMs || Atomics.load(writersWaiting, 0) > 0)
      return done;
  }
}

parentPort?.postMessage({ id: 0, ready: true } satisfies IndexReply);

parentPort?.on('message', (message: IndexRequest | 'close') => {
  if (message === 'close') {
    database.close();
    parentPort?.close();
    return;
  }
  let reply: IndexReply;
  try {
    reply = { id: message.id, done: steps(message) };
  } catch (error) {
    reply = {
      id: message.id,
      error: { message: error instanceof Error ? error.message : String(error), code: sqliteCode(error) },
    };
  }
  parentPort?.postMessage(reply);
});
