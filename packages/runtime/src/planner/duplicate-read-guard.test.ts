import { describe, expect, it } from 'vitest';
import { findDuplicateStep } from './duplicate-read-guard.js';

const ran = (step: number, tool: string, args: unknown) => ({ step, tool, args, ran: true });

describe('findDuplicateStep', () => {
  it('a second read of the same target is a re-read; reading on where a cut ended is not', () => {
    const earlier = [ran(1, 'fs_read', { path: '/tmp/big.log' })];
    expect(findDuplicateStep('fs_read', { path: '/tmp/big.log' }, earlier)).toBe(1);
    expect(
      findDuplicateStep('fs_read', { path: '/tmp/big.log', offset: 1_000_000 }, earlier),
    ).toBeUndefined();
    const after = [...earlier, ran(2, 'fs_read', { path: '/tmp/big.log', offset: 1_000_000 })];
    expect(findDuplicateStep('fs_read', { path: '/tmp/big.log', offset: 1_000_000 }, after)).toBe(2);
    expect(findDuplicateStep('fs_read', { path: '/tmp/big.log', tail_bytes: 4096 }, after)).toBeUndefined();
  });

  it('a web_fetch with a Range header reads another part of the same URL', () => {
    const url = 'https://example.com/big.txt';
    const earlier = [ran(1, 'web_fetch', { url })];
    expect(findDuplicateStep('web_fetch', { url, headers: { Accept: 'text/plain' } }, earlier)).toBe(1);
    expect(
      findDuplicateStep('web_fetch', { url, headers: { Range: 'bytes=200000-' } }, earlier),
    ).toBeUndefined();
  });
});
