import { ScratchpadError } from '../core/errors.js';

/** Where an HTTP server listens: a host name or IP address (IPv6 without brackets) and a port. */
export interface HttpAddress {
  host: string;
  port: number;
}

/** Parses `HOST:PORT`, `[IPV6]:PORT` or `IPV6:PORT` (the last colon separates the port). */
export function parseHttpAddress(text: string): HttpAddress {
  const match = /^(.+):(\d{1,5})$/.exec(text.trim());
  const host = match ? (match[1] as string).replace(/^\[(.*)\]$/, '$1') : '';
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || host.length === 0 || /[\s/[\]]/.test(host) || !(port >= 0 && port <= 65_535)) {
    throw new ScratchpadError('INVALID_ARGUMENT', `Invalid HTTP address ${JSON.stringify(text)}.`, {
      hint: 'Use HOST:PORT, e.g. 127.0.0.1:8765, localhost:8765 or [::1]:8765 (port 0 picks a free one).',
    });
  }
  return { host, port };
}

/** The host as it appears in a URL or a Host header: IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
