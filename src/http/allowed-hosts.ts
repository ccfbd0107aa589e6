import { networkInterfaces } from 'node:os';
import { urlHost } from './http-address.js';
import { isWildcardHost } from './loopback.js';

/** The host names a local HTTP server answers to: the Host header and the Origin must name one of them. */
export type AllowedHosts = ReadonlySet<string>;

/**
 * The default allow-list for a server bound to `bindHost`: `localhost`, `127.0.0.1`, `[::1]`, the bound address,
 * and for `0.0.0.0` / `::` every address of this machine's interfaces (IPv4 only for `0.0.0.0`); plus `extra`
 * (names a reverse proxy or DNS gives this machine). Entries are lowercase, IPv6 in brackets, without ports.
 */
export function createAllowedHosts(bindHost: string, extra: readonly string[] = []): AllowedHosts {
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (isWildcardHost(bindHost)) {
    const ipv4Only = bindHost.trim() === '0.0.0.0';
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) {
        if (ipv4Only && address.family !== 'IPv4') continue;
        hosts.add(normalizeHost(urlHost(address.address.replace(/%.*$/, ''))));
      }
    }
  } else {
    hosts.add(normalizeHost(urlHost(bindHost)));
  }
  for (const name of extra) hosts.add(normalizeHost(name));
  return hosts;
}

/** True when a Host header (`name[:port]`) names an allowed host; any port. */
export function isAllowedHostHeader(hostHeader: string | undefined, allowed: AllowedHosts): boolean {
  if (hostHeader === undefined) return false;
  const name = hostName(hostHeader);
  return name !== undefined && allowed.has(name);
}

/**
 * True when an Origin header is `http://` or `https://` an allowed host (any port). A missing Origin is allowed
 * (non-browser clients send none); `null` and every other scheme are not.
 */
export function isAllowedOrigin(origin: string | undefined, allowed: AllowedHosts): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '')) return false;
  return allowed.has(normalizeHost(url.hostname));
}

/** `Example.COM.` → `example.com`; `[::1]` stays bracketed. */
function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

/** The host name of a Host header without its port, or undefined when it is malformed. */
function hostName(header: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/@]+)(?::\d{1,5})?$/.exec(header.trim());
  return match ? normalizeHost(match[1] as string) : undefined;
}
