import type { ServerResponse } from 'node:http';
import type { ScratchpadError } from '../core/errors.js';
import { errorPayload } from '../core/format-error.js';

/**
 * Largest JSON reply the inspector sends. Every endpoint bounds its reply by construction (slices, clipped strings,
 * capped lists); this is the backstop that turns a missed bound into a clear 500 instead of a huge transfer.
 */
export const MAX_REPLY_BYTES = 1024 * 1024;

/** Headers every inspector reply carries. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Sends `body` as JSON, refusing (500) to send more than {@link MAX_REPLY_BYTES}. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  let text = JSON.stringify(body);
  if (Buffer.byteLength(text) > MAX_REPLY_BYTES) {
    status = 500;
    text = JSON.stringify({
      error: {
        code: 'CONTENT_TOO_LARGE',
        message: `The reply would be larger than ${MAX_REPLY_BYTES} bytes; ask for a smaller slice or page.`,
      },
    });
  }
  response
    .writeHead(status, {
      ...COMMON_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    })
    .end(text);
}

/** Sends an error in the one JSON form: `{error: {code, message, hint?}}` (see `errorPayload`). */
export function sendError(response: ServerResponse, error: ScratchpadError): void {
  sendJson(response, statusOf(error), { error: errorPayload(error) });
}

/** Sends a plain failure that is not a ScratchpadError (403, 404, 405, …) in the same JSON form. */
export function sendFailure(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(response, status, { error: { code, message } }, headers);
}

/** The HTTP status for an error code. */
function statusOf(error: ScratchpadError): number {
  switch (error.code) {
    case 'ENTRY_NOT_FOUND':
    case 'SESSION_NOT_FOUND':
      return 404;
    case 'VERSION_CONFLICT':
      return 409;
    case 'CONTENT_TOO_LARGE':
      return 413;
    case 'STORE_UNAVAILABLE':
      return 503;
    default:
      return error.category === 'user' ? 400 : 500;
  }
}
