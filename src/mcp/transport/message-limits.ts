import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes, formatCount } from '../../core/format.js';

/** Default largest request a server reads: 16 MiB (`--max-request-bytes`). */
export const DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/**
 * Default largest reply a server sends: 8 MiB, under the 10 MiB the official SDK clients accept on stdio (a
 * larger message makes them drop the connection), with room for JSON escaping.
 */
export const DEFAULT_MAX_REPLY_BYTES = 8 * 1024 * 1024;

/** How to work within the request limit, for every refusal to say. */
const REQUEST_ADVICE =
  'Send large content in pieces (scratchpad_write with mode "append", each piece under the limit) and read it back in slices.';

/** The JSON-RPC error for a request that was over the limit (and skipped). */
export function requestTooLargeError(
  bytes: number | undefined,
  maxBytes: number,
  id: RequestId | undefined,
): JSONRPCMessage {
  const size = bytes === undefined ? 'The request' : `The request (${formatBytes(bytes)})`;
  return {
    jsonrpc: '2.0',
    ...(id === undefined ? {} : { id }),
    error: {
      code: ErrorCode.InvalidRequest,
      message: `${size} is over this server's limit of ${describeLimit(maxBytes)} (--max-request-bytes); it was not read, and the server is still running. ${REQUEST_ADVICE}`,
      data: { code: 'CONTENT_TOO_LARGE', limit: maxBytes, ...(bytes === undefined ? {} : { bytes }) },
    },
  } as JSONRPCMessage;
}

/**
 * What to send instead of a reply of `bytes` over `maxBytes`: a tool result becomes an error result (the model
 * reads it), anything else a JSON-RPC error with the same id. Other messages pass unchanged.
 */
export function replaceOversizedReply(
  message: JSONRPCMessage,
  bytes: number,
  maxBytes: number,
): JSONRPCMessage {
  if (!('id' in message) || message.id === undefined || !('result' in message)) return message;
  const text = `The reply (${formatBytes(bytes)}) is over this server's limit of ${describeLimit(maxBytes)} (--max-reply-bytes), so it was not sent. Ask for less: read a slice (offset/limit, lines, head, tail) or grep instead of the whole entry.`;
  const result = message.result as { content?: unknown };
  if (Array.isArray(result.content)) {
    return { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text }], isError: true } };
  }
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: ErrorCode.InternalError,
      message: text,
      data: { code: 'CONTENT_TOO_LARGE', limit: maxBytes, bytes },
    },
  } as JSONRPCMessage;
}

/** `16.8 MB (16,777,216 bytes)`: readable, and exact for whoever sets the flag. */
function describeLimit(bytes: number): string {
  return `${formatBytes(bytes)} (${formatCount(bytes)} bytes)`;
}
