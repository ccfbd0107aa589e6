import process from 'node:process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readJsonRpcMessage } from './jsonrpc-message.js';
import { LineFramer } from './line-framer.js';
import {
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_REQUEST_BYTES,
  replaceOversizedReply,
  requestTooLargeError,
} from './message-limits.js';
import { describeSkippedMessage } from './skipped-message.js';

/** Options for {@link BoundedStdioServerTransport}. */
export interface BoundedStdioServerTransportOptions {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  /** Largest request read (default {@link DEFAULT_MAX_REQUEST_BYTES}). */
  maxRequestBytes?: number;
  /** Largest reply sent (default {@link DEFAULT_MAX_REPLY_BYTES}). */
  maxReplyBytes?: number;
}

/**
 * The MCP server side of stdio (newline-delimited JSON-RPC) that no input can end: a request over the limit is
 * skipped without being buffered and answered with a JSON-RPC error that names the limit (with the request's id,
 * recovered from the message's ends); a line that is not JSON gets a parse error, one that is not JSON-RPC an
 * invalid-request error; a reply over the reply limit is replaced by an error. The connection stays open through
 * all of these. Implements the SDK's `Transport`, so `Server.connect()` takes it like the SDK's own.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #maxRequestBytes: number;
  readonly #maxReplyBytes: number;
  readonly #framer: LineFramer;
  #started = false;
  #closed = false;
  /** Set by {@link firstMessage}: messages read before `start()`, delivered by it in order. */
  #held: JSONRPCMessage[] | undefined;
  #firstArrived: ((message: JSONRPCMessage | undefined) => void) | undefined;

  constructor(options: BoundedStdioServerTransportOptions = {}) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
    this.#maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
    this.#framer = new LineFramer(this.#maxRequestBytes);
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('BoundedStdioServerTransport already started.');
    this.#started = true;
    const held = this.#held;
    this.#held = undefined;
    if (held) {
      // Reading began in firstMessage(): what it held goes to the server that now owns the connection, in order,
      // after connect() has returned.
      queueMicrotask(() => {
        for (const message of held) this.onmessage?.(message);
      });
      return;
    }
    this.#listen();
  }

  /**
   * Starts reading and resolves with the connection's first message (undefined when the client leaves first), held
   * with any that follow it until `start()` delivers them: the caller picks who serves the connection from it.
   */
  firstMessage(): Promise<JSONRPCMessage | undefined> {
    if (this.#started || this.#held) throw new Error('BoundedStdioServerTransport already reading.');
    this.#held = [];
    return new Promise((resolve) => {
      this.#firstArrived = resolve;
      this.#listen();
    });
  }

  #listen(): void {
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onError);
    this.#stdin.on('end', this.#onEnd);
  }

  #deliver(message: JSONRPCMessage): void {
    if (this.#held) {
      this.#held.push(message);
      this.#firstArrived?.(message);
      this.#firstArrived = undefined;
    } else this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    let json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > this.#maxReplyBytes) {
      json = JSON.stringify(replaceOversizedReply(message, bytes, this.#maxReplyBytes));
    }
    await new Promise<void>((resolve) => {
      if (this.#stdout.write(`${json}\n`)) resolve();
      else this.#stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onError);
    this.#stdin.off('end', this.#onEnd);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#framer.clear();
    this.#firstArrived?.(undefined);
    this.#firstArrived = undefined;
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const frames = this.#framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    for (const frame of frames) {
      if (frame.type === 'oversized') {
        const skipped = describeSkippedMessage(frame.head, frame.tail);
        this.onerror?.(
          new Error(`Skipped a ${frame.bytes}-byte message over the ${this.#maxRequestBytes}-byte limit.`),
        );
        if (skipped.id !== undefined || skipped.method === undefined) {
          void this.send(requestTooLargeError(frame.bytes, this.#maxRequestBytes, skipped.id));
        }
        continue;
      }
      if (frame.line.length === 0) continue;
      this.#receive(frame.line);
    }
  };

  #receive(line: Buffer): void {
    let value: unknown;
    try {
      value = JSON.parse(line.toString('utf8'));
    } catch (error) {
      this.onerror?.(new Error(`Parse error: ${(error as Error).message}`));
      void this.send({
        jsonrpc: '2.0',
        error: {
          code: ErrorCode.ParseError,
          message: `Parse error: the message is not JSON (${(error as Error).message}).`,
        },
      } as JSONRPCMessage);
      return;
    }
    const parsed = readJsonRpcMessage(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      const validId = typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
      this.onerror?.(new Error('Invalid JSON-RPC message.'));
      // A response to nothing, or a notification, gets no answer; a request-shaped message does.
      if (validId || typeof (value as { method?: unknown } | null)?.method !== 'string') {
        void this.send({
          jsonrpc: '2.0',
          ...(validId ? { id: id as string | number } : {}),
          error: {
            code: ErrorCode.InvalidRequest,
            message: `Invalid Request: not a JSON-RPC 2.0 message (${parsed.error.issues[0]?.message ?? 'wrong shape'}).`,
          },
        } as JSONRPCMessage);
      }
      return;
    }
    this.#deliver(parsed.data);
  }

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onEnd = (): void => {
    void this.close();
  };
}
