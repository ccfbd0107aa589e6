import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { replaceOversizedReply } from './message-limits.js';

/**
 * Wraps a transport so that no reply over `maxBytes` leaves it: such a reply is replaced by an error that names
 * the limit (see `replaceOversizedReply`). For transports that serialize internally (Streamable HTTP); the stdio
 * transport checks the string it writes instead.
 */
export class ReplyLimitedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #maxBytes: number;

  constructor(inner: Transport, maxBytes: number) {
    this.#inner = inner;
    this.#maxBytes = maxBytes;
    const onclose = inner.onclose;
    inner.onclose = () => {
      onclose?.();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('result' in message) {
      const bytes = Buffer.byteLength(JSON.stringify(message), 'utf8');
      if (bytes > this.#maxBytes)
        return this.#inner.send(replaceOversizedReply(message, bytes, this.#maxBytes), options);
    }
    return this.#inner.send(message, options);
  }
}
