import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { browsableHosts } from './browsable-hosts.js';

/** This machine's addresses of `family` other than loopback and IPv6 link-local, as a URL names them. */
function interfaceHosts(family: 'IPv4' | 'IPv6'): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter(
      (address) => address.family === family && !address.internal && !/^fe[89ab]/i.test(address.address),
    )
    .map((address) => (family === 'IPv6' ? `[${address.address}]` : address.address));
}

describe('browsableHosts', () => {
  it('is the bound host itself when it is not a wildcard (IPv6 in brackets)', () => {
    expect(browsableHosts('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(browsableHosts('localhost')).toEqual(['localhost']);
    expect(browsableHosts('::1')).toEqual(['[::1]']);
    expect(browsableHosts('[::1]')).toEqual(['[::1]']);
    expect(browsableHosts('192.0.2.7')).toEqual(['192.0.2.7']);
  });

  it('is loopback, then each IPv4 interface, for 0.0.0.0; never the wildcard', () => {
    expect(browsableHosts('0.0.0.0')).toEqual(['127.0.0.1', ...interfaceHosts('IPv4')]);
  });

  it('is IPv6 loopback, then each interface of both families, for ::', () => {
    const hosts = browsableHosts('::');
    expect(hosts[0]).toBe('[::1]');
    expect(new Set(hosts.slice(1))).toEqual(new Set([...interfaceHosts('IPv4'), ...interfaceHosts('IPv6')]));
    expect(hosts).not.toContain('[::]');
  });
});
