import { networkInterfaces } from 'node:os';
import { urlHost } from './http-address.js';
import { isLoopbackHost, isWildcardHost } from './loopback.js';

/**
 * The hosts a browser can open for a server bound to `bindHost`, as they go in a URL (IPv6 in brackets): the bound
 * host itself; for a wildcard bind (`0.0.0.0`, `::`, which a browser cannot open) loopback first (`127.0.0.1`, or
 * `[::1]` for `::`), then each address of this machine's other interfaces (IPv4 only for `0.0.0.0`; IPv6
 * link-local addresses are left out: a URL cannot name their interface portably).
 */
export function browsableHosts(bindHost: string): string[] {
  if (!isWildcardHost(bindHost)) return [urlHost(bindHost.trim().replace(/^\[(.*)\]$/, '$1'))];
  const ipv4Only = bindHost.trim() === '0.0.0.0';
  const hosts = [ipv4Only ? '127.0.0.1' : '[::1]'];
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (ipv4Only && address.family !== 'IPv4') continue;
      if (address.internal || isLoopbackHost(address.address)) continue;
      if (address.family === 'IPv6' && /^fe[89ab]/i.test(address.address)) continue;
      const host = urlHost(address.address.replace(/%.*$/, ''));
      if (!hosts.includes(host)) hosts.push(host);
    }
  }
  return hosts;
}
