// Keeps web_fetch off this machine's own addresses unless the user allows it: loopback (127.0.0.0/8, ::1, and
// 0.0.0.0/8 and ::, which connect to loopback on Linux) and link-local (169.254.0.0/16, fe80::/10, where cloud
// metadata services hand out credentials). Behind those addresses are the user's local services: databases, dev
// servers, this scratchpad's own `ui` and `mcp --http`, which would otherwise let a model read other sessions.
// Names are checked where the connection is made (every address a name resolves to, each redirect hop), so a name
// that resolves differently on a second lookup cannot slip past a check made earlier.
import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Set to 1 by the runtime for executors listed in `[runtime.sandbox] local_network`. */
export const LOCAL_NETWORK_ALLOWED = process.env.SCRATCHPAD_LOCAL_NETWORK === '1';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

/** `loopback` or `link-local` for such an address (IPv4-mapped IPv6 included), else undefined. */
export function localAddressKind(address) {
  const family = isIP(address);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(address, type)) return 'loopback';
  if (LINK_LOCAL.check(address, type)) return 'link-local';
  return undefined;
}

/** The error a refused address gets: what was refused, why, and how to allow it. */
export function localAddressError(host, address, kind) {
  const named = host === address ? address : `${host} (${address})`;
  const error = new Error(
    `web_fetch does not connect to this machine's own addresses: ${named} is ${kind}. Local services ` +
      "(databases, dev servers, this scratchpad's ui and mcp --http) are out of the model's reach; the user can " +
      'allow them with local_network = ["web_fetch"] in the [runtime.sandbox] section of config.toml.',
  );
  error.code = 'ELOCALADDRESS';
  return error;
}

/** Refuses a URL whose host is a literal local address (names are checked at lookup, by `guardLookups`). */
export function assertNotLocalLiteral(url) {
  if (LOCAL_NETWORK_ALLOWED) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const kind = localAddressKind(host);
  if (kind) throw localAddressError(host, host, kind);
}

/**
 * Makes every name lookup of this process (fetch's connections use `dns.lookup`) fail with ELOCALADDRESS when any
 * address of the name is local, so a name with one public and one loopback address cannot be raced to loopback.
 */
export function guardLookups() {
  if (LOCAL_NETWORK_ALLOWED) return;
  const original = dns.lookup;
  dns.lookup = function guardedLookup(hostname, options, callback) {
    const done = typeof options === 'function' ? options : callback;
    const given =
      typeof options === 'function' ? {} : typeof options === 'number' ? { family: options } : options;
    original.call(dns, hostname, { ...given, all: true }, (error, addresses) => {
      if (error) return done(error);
      for (const { address } of addresses) {
        const kind = localAddressKind(address);
        if (kind) return done(localAddressError(hostname, address, kind));
      }
      if (given?.all) return done(null, addresses);
      const [first] = addresses;
      if (!first) return done(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
      return done(null, first.address, first.family);
    });
  };
}
