import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePosixPath, resolvePosixPath } from './posix-path.js';

describe('normalizePosixPath', () => {
  it.each([
    ['/etc/./passwd', '/etc/passwd'],
    ['//etc///passwd', '/etc/passwd'],
    ['/tmp/../etc/shadow', '/etc/shadow'],
    ['/../../etc', '/etc'],
    ['../../etc/passwd', '../../etc/passwd'],
    ['a/b/../../..', '..'],
    ['./', '.'],
    ['/', '/'],
  ])('%s → %s', (input, expected) => {
    expect(normalizePosixPath(input)).toBe(expected);
  });

  it('agrees with path.posix.normalize, without trailing slashes', () => {
    const segment = fc.constantFrom('a', 'b', '.', '..', '', 'c.d');
    fc.assert(
      fc.property(fc.boolean(), fc.array(segment, { maxLength: 12 }), (absolute, segments) => {
        const path = `${absolute ? '/' : ''}${segments.join('/')}`;
        const expected = posix.normalize(path === '' ? '.' : path).replace(/(.)\/$/, '$1');
        expect(normalizePosixPath(path)).toBe(expected === './' ? '.' : expected);
      }),
    );
  });

  it('resolves against a base', () => {
    expect(resolvePosixPath('/home/alice/project', '../../../etc/passwd')).toBe('/etc/passwd');
    expect(resolvePosixPath('/home/alice', '/tmp/x')).toBe('/tmp/x');
  });
});
