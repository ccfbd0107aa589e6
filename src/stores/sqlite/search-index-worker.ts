/**
 * The search index thread of a file-backed SQLite store (started by `IndexThread`, index-thread.ts): on its own
 * connection it runs the indexing and un-indexing steps the store's loops ask for, one transaction each, so
 * tokenizing chunks and FTS5's segment merges at commit never run on the event loop (decision 012). It waits for
 * the write lock in this thread (the busy timeout); the store's connection waits for it without blocking.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { BlobDirectory } from './blob-directory.js';
import { registerChunkTextFunction } from './chunk-text-function.js';
import { sqliteCode } from './sqlite-errors.js';
import { SearchIndex } from './sqlite-search.js';
import { ImmediateTransaction } from './sqlite-transaction.js';

/** What the thread is started with. */
export interface IndexWorkerData {
  path: string;
  busyTimeoutMs: number;
  /** How long one step goes on taking more chunks (see `INDEX_STEP_MS`). */
  stepMs: number;
}

/** A step the store asks for: index some of `session`, or work off some of the un-indexing queue. */
export type IndexRequest = { id: number; kind: 'index'; session: string } | { id: number; kind: 'unindex' };

/** A step's answer: how much it did, or why it failed (a SQLite code the store turns into its error). */
export type IndexReply =
  | { id: number; done: number }
  | { id: number; error: { message: string; code: string | undefined } };

const { path, busyTimeoutMs, stepMs } = workerData as IndexWorkerData;
const database = new Database(path, { fileMustExist: true });
database.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
database.pragma('synchronous = NORMAL');
registerChunkTextFunction(database, new BlobDirectory(path));
const search = new SearchIndex(database);
const transaction = new ImmediateTransaction(database, busyTimeoutMs);

function step(request: IndexRequest): number {
  if (request.kind === 'index') return transaction.run(() => search.indexChunks(request.session, stepMs));
  if (!search.hasQueued()) return 0;
  return transaction.run(() => search.unindexChunks(stepMs));
}

parentPort?.on('message', (message: IndexRequest | 'close') => {
  if (message === 'close') {
    database.close();
    parentPort?.close();
    return;
  }
  let reply: IndexReply;
  try {
    reply = { id: message.id, done: step(message) };
  } catch (error) {
    reply = {
      id: message.id,
      error: { message: error instanceof Error ? error.message : String(error), code: sqliteCode(error) },
    };
  }
  parentPort?.postMessage(reply);
});
