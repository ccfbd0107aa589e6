/**
 * The grep worker thread: runs {@link LineSearcher.find} on the regions the main thread sends, so RE2 never runs
 * on the event loop. Started by `GrepWorkerPool` (grep-thread.ts); one request at a time.
 */
import { parentPort } from 'node:worker_threads';
import { LineSearcher, type RegionQuery } from './grep-region.js';

/** A region to search: its bytes (transferred, the worker owns them) and the query. */
export interface GrepWorkerRequest {
  id: number;
  pattern: string;
  ignoreCase: boolean;
  data: Uint8Array;
  query: RegionQuery;
  /** Transfer `data` back with the reply (the main thread lent its own buffer instead of a copy). */
  giveBack: boolean;
}

/** The answer to {@link GrepWorkerRequest} `id`. */
export type GrepWorkerReply =
  | { id: number; at: number[]; more: number; data?: Uint8Array }
  | { id: number; error: string; data?: Uint8Array };

let current: { pattern: string; ignoreCase: boolean; searcher: LineSearcher } | undefined;

parentPort?.on('message', (request: GrepWorkerRequest) => {
  let reply: GrepWorkerReply;
  try {
    if (!current || current.pattern !== request.pattern || current.ignoreCase !== request.ignoreCase) {
      const searcher = new LineSearcher(request.pattern, request.ignoreCase);
      current = { pattern: request.pattern, ignoreCase: request.ignoreCase, searcher };
    }
    const data = request.data;
    const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    reply = { id: request.id, ...current.searcher.find(buffer, request.query) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  if (request.giveBack) {
    parentPort?.postMessage({ ...reply, data: request.data }, [request.data.buffer as ArrayBuffer]);
  } else {
    parentPort?.postMessage(reply);
  }
});
