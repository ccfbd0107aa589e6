import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { buildDesiredSignature } from './desired-signature.js';
import { Mnestome } from './mnestome.js';
import { DAY_MS, MNESTOME } from './mnestome-constants.js';

let dir: string;
let mnestome: Mnestome;
const t0 = Date.UTC(2026, 3, 1, 12, 0, 0);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scratchpad-mnestome-'));
  mnestome = Mnestome.open(join(dir, 'mnestome.db'));
});
afterEach(() => {
  mnestome.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Mnestome', () => {
  it('bootstraps a passage, then reinforces it towards 1 on each use', async () => {
    const first = await mnestome.recordPassing({ src: 'fs_read', dst: 'fs_write', dstExists: true, at: t0 });
    expect(first).toEqual({
      src: 'fs_read',
      dst: 'fs_write',
      weight: MNESTOME.bootstrapWeight,
      uses: 1,
      last_used_at: new Date(t0).toISOString(),
      dst_exists: true,
      desired_signature: null,
    });
    await mnestome.recordPassing({ src: 'fs_read', dst: 'fs_write', dstExists: true, at: t0 + 1000 });
    const third = await mnestome.recordPassing({
      src: 'fs_read',
      dst: 'fs_write',
      dstExists: true,
      at: t0 + 2000,
    });
    expect(third.uses).toBe(3);
    expect(third.weight).toBeCloseTo(0.352, 4);
  });

  it('keeps a proto-mnest with its desired signature; a real use of the same pair makes it real', async () => {
    const signature = buildDesiredSignature('save_copy', { path: 'x', content: '{{step1.content}}' }, [
      { from: 'fs_read', field: 'content' },
    ]);
    expect(signature).toEqual({
      name: 'save_copy',
      words: ['save', 'copy'],
      arg_keys: ['content', 'path'],
      inputs: [{ from: 'fs_read', field: 'content' }],
    });
    const proto = await mnestome.recordPassing({
      src: 'fs_read',
      dst: 'save_copy',
      dstExists: false,
      desiredSignature: signature,
      at: t0,
    });
    expect(proto).toMatchObject({ dst_exists: false, desired_signature: signature });
    const real = await mnestome.recordPassing({ src: 'fs_read', dst: 'save_copy', dstExists: true, at: t0 });
    expect(real).toMatchObject({ dst_exists: true, desired_signature: signature, uses: 2 });
  });

  it('lists recurring proto-mnests: uses ≥ 3 and weight ≥ 0.30', async () => {
    for (let use = 0; use < 2; use += 1)
      await mnestome.recordPassing({ src: 'fs_read', dst: 'pdf_text', dstExists: false, at: t0 });
    expect(await mnestome.recurringProtos()).toEqual([]);
    await mnestome.recordPassing({ src: 'fs_read', dst: 'pdf_text', dstExists: false, at: t0 });
    expect((await mnestome.recurringProtos()).map((passage) => passage.dst)).toEqual(['pdf_text']);
  });

  it('apply_ager decays by half-life once per elapsed time, demotes weak real passages, purges stale protos', async () => {
    await mnestome.recordPassing({ src: 'fs_read', dst: 'fs_write', dstExists: true, at: t0 });
    await mnestome.recordPassing({ src: 'fs_read', dst: 'pdf_text', dstExists: false, at: t0 });
    const month = t0 + MNESTOME.decayHalfLifeDays * DAY_MS;
    expect(await mnestome.applyAger(month)).toEqual({ decayed: 2, demoted: 0, purged: 0 });
    expect((await mnestome.list()).find((passage) => passage.dst === 'fs_write')?.weight).toBeCloseTo(0.1, 4);
    // Aging again at the same moment changes nothing.
    expect(await mnestome.applyAger(month)).toEqual({ decayed: 0, demoted: 0, purged: 0 });
    const later = month + 1.5 * MNESTOME.decayHalfLifeDays * DAY_MS;
    expect(await mnestome.applyAger(later)).toEqual({ decayed: 1, demoted: 1, purged: 1 });
    expect(await mnestome.list()).toEqual([
      expect.objectContaining({ dst: 'fs_write', state: 'dormant', weight: 0.0354 }),
    ]);
    expect(await mnestome.realPassages()).toEqual([]);
    // A new use wakes it.
    await mnestome.recordPassing({ src: 'fs_read', dst: 'fs_write', dstExists: true, at: later });
    expect((await mnestome.realPassages()).map((passage) => passage.dst)).toEqual(['fs_write']);
  });

  it('refuses names no executor could have', async () => {
    await expect(
      mnestome.recordPassing({ src: 'fs_read', dst: 'x'.repeat(65), dstExists: false, at: t0 }),
    ).rejects.toThrow(/cannot be recorded/);
  });

  it('names a file that is not a database', () => {
    const path = join(dir, 'garbage.db');
    writeFileSync(path, 'this is not sqlite '.repeat(100));
    const error = (() => {
      try {
        Mnestome.open(path);
      } catch (caught) {
        return caught;
      }
    })();
    expect(ScratchpadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(path);
  });
});
