import { expect } from 'vitest';
import type { ContractHarness } from './contract-harness.js';
import { expectCode } from './expect-code.js';

/**
 * Lifecycle rules of the store contract: an expired entry is gone for every purpose (its name is free at once, it
 * is not counted), a pinned entry never expires while pinned, and reading an expired entry says so.
 */
export function lifecycleContract({ open, test, tick, now }: ContractHarness): void {
  test('an expired name can be written at once, as a create, in every write mode', async () => {
    const pad = open();
    for (const mode of ['replace', 'create', 'append'] as const) {
      const name = `gone-${mode}`;
      const first = await pad.write('s1', name, 'old content', { ttlMs: 1000 });
      await pad.write('s1', name, ' more', { mode: 'append' });
      tick(1000);
      const again = await pad.write('s1', name, 'new', { mode });
      expect(again.created).toBe(true);
      expect(again.previous).toBeUndefined();
      expect(again.entry).toMatchObject({ version: 1, bytes: 3, expiresAt: null, createdAt: now() });
      expect(again.entry.id).not.toBe(first.entry.id);
      expect((await pad.read('s1', name)).content).toBe('new');
    }
    await pad.write('s1', 'cas', 'x', { ttlMs: 1000 });
    tick(1000);
    expect((await pad.write('s1', 'cas', 'y', { ifVersion: 0 })).created).toBe(true);
    await expectCode(pad.write('s1', 'cas', 'z', { ifVersion: 0 }), 'VERSION_CONFLICT');
    expect((await pad.list('s1')).entries.map((entry) => entry.name)).toEqual([
      'cas',
      'gone-append',
      'gone-create',
      'gone-replace',
    ]);
    expect(await pad.stats()).toMatchObject({ entries: 4, bytes: 10 });
  });

  test('reading, editing or updating an expired entry says it expired', async () => {
    const pad = open();
    await pad.write('s1', 'brief', 'text', { ttlMs: 1000 });
    tick(1500);
    for (const attempt of [
      () => pad.read('s1', 'brief'),
      () => pad.get('s1', 'brief'),
      () => pad.edit('s1', 'brief', { oldText: 'text', newText: 'x' }),
      () => pad.update('s1', 'brief', { pinned: true }),
    ]) {
      const error = await expectCode(attempt(), 'ENTRY_NOT_FOUND');
      expect(error.message).toContain('expired at');
    }
    expect(await pad.find('s1', 'brief')).toBeUndefined();
  });

  test('a pinned entry never expires while pinned; unpinned, its TTL applies again', async () => {
    const pad = open();
    await pad.write('s1', 'keep', 'pinned text', { ttlMs: 1000, pinned: true });
    tick(5000);
    expect((await pad.read('s1', 'keep')).content).toBe('pinned text');
    expect((await pad.list('s1')).entries.map((entry) => entry.name)).toEqual(['keep']);
    expect((await pad.gc()).removed).toEqual([]);
    expect(await pad.stats()).toMatchObject({ entries: 1, bytes: 11, pinnedBytes: 11 });
    await pad.update('s1', 'keep', { pinned: false });
    await expectCode(pad.read('s1', 'keep'), 'ENTRY_NOT_FOUND');
    expect((await pad.gc()).removed.map((item) => [item.name, item.reason])).toEqual([['keep', 'expired']]);
  });

  test('stats and sessions count only live entries', async () => {
    const pad = open();
    await pad.write('s1', 'live', 'abc');
    await pad.write('s1', 'dying', 'x'.repeat(100), { ttlMs: 1000 });
    await pad.write('s2', 'dying', 'y'.repeat(50), { ttlMs: 1000 });
    tick(1000);
    expect(await pad.stats()).toMatchObject({ sessions: 2, entries: 1, bytes: 3, pinnedBytes: 0 });
    expect((await pad.sessions()).map((info) => [info.id, info.entries, info.bytes])).toEqual([
      ['s1', 1, 3],
      ['s2', 0, 0],
    ]);
    expect(await pad.sessionInfo('s1')).toMatchObject({ entries: 1, bytes: 3 });
  });
}
