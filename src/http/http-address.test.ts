import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHttpAddress, urlHost } from './http-address.js';

describe('parseHttpAddress', () => {
  it('parses names, IPv4 and IPv6 (bracketed or not)', () => {
    expect(parseHttpAddress('127.0.0.1:8765')).toEqual({ host: '127.0.0.1', port: 8765 });
    expect(parseHttpAddress('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    expect(parseHttpAddress('[::1]:80')).toEqual({ host: '::1', port: 80 });
  });

  it('refuses what is not HOST:PORT with INVALID_ARGUMENT', () => {
    for (const bad of [
      '',
      '8765',
      'localhost',
      'localhost:',
      ':80',
      'host:99999',
      'a b:80',
      'x/y:80',
      '[::1:80',
    ]) {
      expect(() => parseHttpAddress(bad), bad).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
  });

  it('round-trips any host and port through urlHost', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6()),
        fc.integer({ min: 0, max: 65_535 }),
        (host, port) => {
          expect(parseHttpAddress(`${urlHost(host)}:${port}`)).toEqual({ host, port });
        },
      ),
    );
  });
});
