import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBearerCheck, loadToken } from './bearer-token.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('bearer token', () => {
  it('loads the first line of the token file, else SCRATCHPAD_TOKEN, else nothing', () => {
    const directory = mkdtempSync(join(tmpdir(), 'token-'));
    directories.push(directory);
    const file = join(directory, 'token');
    writeFileSync(file, '0123456789abcdef0123\nignored\n');
    expect(loadToken({ tokenFile: file, env: { SCRATCHPAD_TOKEN: 'x'.repeat(20) } })).toBe(
      '0123456789abcdef0123',
    );
    expect(loadToken({ env: { SCRATCHPAD_TOKEN: ` ${'y'.repeat(20)} ` } })).toBe('y'.repeat(20));
    expect(loadToken({ env: {} })).toBeUndefined();
    writeFileSync(file, 'short\n');
    expect(() => loadToken({ tokenFile: file })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(() => loadToken({ tokenFile: join(directory, 'missing') })).toThrow(/Cannot read the token file/);
  });

  it('accepts exactly "Bearer <token>"', () => {
    const check = createBearerCheck('0123456789abcdef0123');
    expect(check('Bearer 0123456789abcdef0123')).toBe(true);
    expect(check('bearer 0123456789abcdef0123')).toBe(true);
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer 0123456789abcdef012',
      'Basic 0123456789abcdef0123',
      '0123456789abcdef0123',
      'Bearer 0123456789abcdef0123 x',
    ]) {
      expect(check(header), String(header)).toBe(false);
    }
  });
});
