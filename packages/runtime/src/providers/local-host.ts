/**
 * True when `baseURL` points to this machine or a private network (loopback, RFC 1918, link-local, `.local`):
 * servers there usually need no API key. Unparsable URLs count as remote.
 */
export function isLocalHost(baseURL: string): boolean {
  let host: string;
  try {
    host = new URL(baseURL).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  if (host === '::1' || host === '::' || host.startsWith('fe80:') || /^f[cd][0-9a-f]{2}:/.test(host))
    return true;
  const octets = host.split('.').map(Number);
  if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet) || octet < 0 || octet > 255))
    return false;
  const [first, second] = octets as [number, number, number, number];
  return (
    first === 127 ||
    first === 10 ||
    (first === 0 && octets.every((octet) => octet === 0)) ||
    (first === 192 && second === 168) ||
    (first === 172 && second >= 16 && second <= 31) ||
    (first === 169 && second === 254)
  );
}
