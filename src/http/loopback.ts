import { isIP } from 'node:net';

/**
 * True when `host` (a name or an address, IPv6 with or without brackets) only reaches this machine: `localhost`,
 * 127.0.0.0/8, `::1` and the IPv4-mapped `::ffff:127.x.y.z`.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) {
    if (bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
    return mapped !== null && (mapped[1] as string).startsWith('127.');
  }
  return false;
}

/** True for the wildcard addresses that listen on every interface (`0.0.0.0`, `::`). */
export function isWildcardHost(host: string): boolean {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  return bare === '0.0.0.0' || bare === '::' || bare === '0:0:0:0:0:0:0:0';
}
