import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { DiskReserve } from './disk-reserve.js';

const directory = mkdtempSync(join(tmpdir(), 'scratchpad-disk-reserve-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function caught(body: () => void): unknown {
  try {
    body();
  } catch (error) {
    return error;
  }
  throw new Error('it did not throw');
}

describe('DiskReserve.assertRoomForWrite', () => {
  it('writes a missing reserve back, whole, before a write goes on', () => {
    const reserve = new DiskReserve(join(directory, 'a.db'), 256 * 1024 + 5);
    reserve.assertRoomForWrite(join(directory, 'a.db'));
    expect(statSync(reserve.path).size).toBe(256 * 1024 + 5);
    expect(reserve.release()).toBe(true);
    reserve.assertRoomForWrite(join(directory, 'a.db'));
    expect(existsSync(reserve.path)).toBe(true);
  });

  it('refuses the write with STORE_FULL, saying how much is free, when the disk has less room than the reserve', () => {
    const reserve = new DiskReserve(join(directory, 'b.db'), Number.MAX_SAFE_INTEGER);
    const error = caught(() => reserve.assertRoomForWrite(join(directory, 'b.db')));
    expect(ScratchpadError.hasCode(error, 'STORE_FULL')).toBe(true);
    expect((error as ScratchpadError).message).toMatch(/is full: .* free, less than the .* kept aside/);
    expect((error as ScratchpadError).details).toMatchObject({ reserveBytes: Number.MAX_SAFE_INTEGER });
    expect(existsSync(reserve.path)).toBe(false);
  });

  it('says why when the disk has room but the reserve cannot be written (a read-only file system)', (context) => {
    const readOnly = join(directory, 'read-only');
    mkdirSync(readOnly);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,ro', 'tmpfs', readOnly], { stdio: 'pipe' });
    } catch {
      context.skip('cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN)');
    }
    try {
      const reserve = new DiskReserve(join(readOnly, 'c.db'), 1024 * 1024);
      const error = caught(() => reserve.assertRoomForWrite(join(readOnly, 'c.db')));
      expect(ScratchpadError.hasCode(error, 'STORE_UNAVAILABLE')).toBe(true);
      expect((error as ScratchpadError).message).toContain('disk reserve');
    } finally {
      execFileSync('umount', ['--lazy', readOnly], { stdio: 'pipe' });
    }
  });
});
