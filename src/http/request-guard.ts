import type { IncomingMessage } from 'node:http';
import { type AllowedHosts, isAllowedHostHeader, isAllowedOrigin } from './allowed-hosts.js';
import { createBearerCheck } from './bearer-token.js';

/** Configuration of {@link createRequestGuard}. */
export interface RequestGuardConfig {
  /** Host names the Host header and the Origin may name (see `createAllowedHosts`). */
  allowedHosts: AllowedHosts;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Methods served (default GET, POST, DELETE). */
  methods?: readonly string[];
  /** Methods whose body must be `application/json` (default POST). */
  jsonMethods?: readonly string[];
}

/** Why a request was turned away: the status to answer with and a sentence that says what to fix. */
export interface Rejection {
  status: 401 | 403 | 405 | 415;
  message: string;
  headers?: Record<string, string>;
}

/**
 * The checks every local HTTP surface applies before it reads a body, in this order: Host and Origin against the
 * allow-list (403: DNS rebinding and cross-site pages), the bearer token (401), the method (405), the content type
 * (415). Returns the first failure, or undefined when the request may proceed.
 */
export function createRequestGuard(
  config: RequestGuardConfig,
): (request: IncomingMessage) => Rejection | undefined {
  const methods = config.methods ?? ['GET', 'POST', 'DELETE'];
  const jsonMethods = config.jsonMethods ?? ['POST'];
  const bearer = config.token === undefined ? undefined : createBearerCheck(config.token);
  return (request): Rejection | undefined => {
    const host = request.headers.host;
    if (!isAllowedHostHeader(host, config.allowedHosts)) {
      return {
        status: 403,
        message: `Forbidden: the Host header ${JSON.stringify(host ?? '')} is not an allowed host of this server (start it with --allowed-host NAME to add one).`,
      };
    }
    const origin = request.headers.origin;
    if (!isAllowedOrigin(origin, config.allowedHosts)) {
      return {
        status: 403,
        message: `Forbidden: requests from the origin ${JSON.stringify(origin)} are not allowed (only http(s) origins of an allowed host are).`,
      };
    }
    if (bearer && !bearer(request.headers.authorization)) {
      return {
        status: 401,
        message: 'Unauthorized: send the server token as "Authorization: Bearer <token>".',
        headers: { 'www-authenticate': 'Bearer realm="scratchpad"' },
      };
    }
    const method = request.method ?? 'GET';
    if (!methods.includes(method)) {
      return {
        status: 405,
        message: `Method ${method} is not allowed here; use ${methods.join(', ')}.`,
        headers: { allow: methods.join(', ') },
      };
    }
    if (jsonMethods.includes(method) && !isJsonMediaType(request.headers['content-type'])) {
      return {
        status: 415,
        message: `Unsupported Media Type: the body must be application/json, got ${JSON.stringify(request.headers['content-type'] ?? '')}.`,
      };
    }
    return undefined;
  };
}

/** `application/json`, optionally with parameters (`; charset=utf-8`); parsed, never a substring match. */
function isJsonMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}
