import { networkInterfaces } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAllowedHosts, isAllowedHostHeader, isAllowedOrigin } from './allowed-hosts.js';

describe('allowed hosts', () => {
  it('allows the loopback names and the bound address by default, any port', () => {
    const allowed = createAllowedHosts('127.0.0.1');
    for (const host of ['localhost', 'LOCALHOST:8765', '127.0.0.1:1', '[::1]:8765', '[::1]']) {
      expect(isAllowedHostHeader(host, allowed), host).toBe(true);
    }
    for (const host of [
      'evil.example',
      'evil.example:8765',
      '127.0.0.1.evil.example',
      '',
      'localhost:80:80',
      'user@localhost',
    ]) {
      expect(isAllowedHostHeader(host, allowed), host).toBe(false);
    }
    expect(isAllowedHostHeader(undefined, allowed)).toBe(false);
  });

  it('adds --allowed-host names and, for 0.0.0.0, every IPv4 interface address', () => {
    const allowed = createAllowedHosts('0.0.0.0', ['Scratchpad.Example.']);
    expect(isAllowedHostHeader('scratchpad.example:443', allowed)).toBe(true);
    for (const address of Object.values(networkInterfaces()).flat()) {
      if (address?.family === 'IPv4') expect(isAllowedHostHeader(`${address.address}:1`, allowed)).toBe(true);
    }
    expect(createAllowedHosts('192.0.2.7').has('192.0.2.7')).toBe(true);
    expect(createAllowedHosts('::').has('[::1]')).toBe(true);
  });

  it('allows no Origin, or an http(s) origin of an allowed host on any port; nothing else', () => {
    const allowed = createAllowedHosts('127.0.0.1');
    expect(isAllowedOrigin(undefined, allowed)).toBe(true);
    for (const origin of ['http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:9']) {
      expect(isAllowedOrigin(origin, allowed), origin).toBe(true);
    }
    for (const origin of [
      'null',
      'http://evil.example',
      'file://localhost',
      'chrome-extension://abc',
      'http://localhost.evil.example',
      '',
    ]) {
      expect(isAllowedOrigin(origin, allowed), origin).toBe(false);
    }
  });

  it('never allows a host header that is not on the list (property)', () => {
    const allowed = createAllowedHosts('127.0.0.1');
    fc.assert(
      fc.property(fc.domain(), fc.integer({ min: 0, max: 65_535 }), (domain, port) => {
        fc.pre(domain !== 'localhost');
        expect(isAllowedHostHeader(`${domain}:${port}`, allowed)).toBe(false);
        expect(isAllowedOrigin(`http://${domain}:${port}`, allowed)).toBe(false);
      }),
    );
  });
});
