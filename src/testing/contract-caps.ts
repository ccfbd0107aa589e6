import { expect } from 'vitest';
import type { ContractHarness } from './contract-harness.js';
import { expectCode } from './expect-code.js';

/**
 * Size caps of the store contract: a cap never destroys what someone wrote. It evicts only expired and
 * evictable entries, oldest first, and only once it knows the write will then fit; otherwise `STORE_FULL` with
 * nothing evicted.
 */
export function capsContract({ open, test, tick }: ContractHarness): void {
  const names = async (pad: ReturnType<ContractHarness['open']>, session: string) =>
    (await pad.list(session)).entries.map((entry) => entry.name);

  test('a write that cannot fit evicts nothing and fails naming what uses the space', async () => {
    const pad = open({ maxStoreBytes: 2000 });
    for (let index = 0; index < 10; index++) await pad.write('victim', `doc-${index}`, 'v'.repeat(100));
    const tooBig = await expectCode(pad.write('attacker', 'flood', 'a'.repeat(2500)), 'STORE_FULL');
    expect(tooBig.message).toContain('more than the whole maxStoreBytes cap');
    const full = await expectCode(pad.write('attacker', 'flood', 'a'.repeat(1500)), 'STORE_FULL');
    expect(full.message).toContain('nothing was evicted');
    expect(full.message).toContain('"victim"');
    expect(await names(pad, 'victim')).toHaveLength(10);
    expect(await names(pad, 'attacker')).toEqual([]);
    expect(await pad.stats()).toMatchObject({ entries: 10, bytes: 1000 });
    expect((await pad.write('attacker', 'fits', 'a'.repeat(1000))).entry.bytes).toBe(1000);
    await expectCode(pad.write('attacker', 'fits', 'more', { mode: 'append' }), 'STORE_FULL');
    expect((await pad.read('attacker', 'fits')).content).toBe('a'.repeat(1000));
  });

  test('a cap evicts expired, then evictable entries, oldest first, only as much as the write needs', async () => {
    const pad = open({ maxStoreBytes: 1000 });
    await pad.write('s1', 'pinned', 'p'.repeat(200), { pinned: true });
    tick(1);
    await pad.write('s1', 'written', 'w'.repeat(200));
    tick(1);
    await pad.write('s1', 'old-result', 'o'.repeat(200), { evictable: true });
    tick(1);
    await pad.write('s1', 'new-result', 'n'.repeat(200), { evictable: true });
    tick(1);
    await pad.write('s1', 'brief', 'b'.repeat(150), { ttlMs: 1000 });
    tick(1000);
    // 750 live + 150 expired; 300 more needs 200 freed: the expired entry, then the oldest evictable one.
    await pad.write('s1', 'next', 'x'.repeat(300));
    expect(await names(pad, 's1')).toEqual(['new-result', 'next', 'pinned', 'written']);
    expect(await pad.get('s1', 'new-result')).toMatchObject({ evictable: true });
    expect(await pad.get('s1', 'written')).toMatchObject({ evictable: false });
    // 900 used; 600 more would need 500 freed but only 200 is evictable: refused, and nothing goes.
    await expectCode(pad.write('s1', 'huge', 'h'.repeat(600)), 'STORE_FULL');
    expect(await names(pad, 's1')).toEqual(['new-result', 'next', 'pinned', 'written']);
    // Replacing an entry only needs room for its growth.
    await pad.write('s1', 'written', 'W'.repeat(350));
    expect(await names(pad, 's1')).toEqual(['next', 'pinned', 'written']);
  });

  test('maxSessionBytes caps each session; its eviction stays in the session', async () => {
    const pad = open({ maxSessionBytes: 500 });
    await pad.write('s1', 'mine', 'm'.repeat(300));
    await pad.write('s2', 'result', 'r'.repeat(400), { evictable: true });
    const full = await expectCode(pad.write('s1', 'more', 'x'.repeat(300)), 'STORE_FULL');
    expect(full.message).toContain('session "s1"');
    expect(full.hint).toContain('maxSessionBytes');
    expect(await names(pad, 's2')).toEqual(['result']);
    await pad.write('s1', 'result', 'y'.repeat(150), { evictable: true });
    tick(1);
    await pad.write('s1', 'last', 'z'.repeat(200));
    expect(await names(pad, 's1')).toEqual(['last', 'mine']);
    expect(await names(pad, 's2')).toEqual(['result']);
    await expectCode(pad.write('s3', 'x', 'x'.repeat(501)), 'STORE_FULL');
  });

  test('gc enforces the caps with expired and evictable entries only', async () => {
    const unlimited = open();
    await unlimited.write('s1', 'written', 'w'.repeat(800));
    tick(1);
    await unlimited.write('s1', 'result', 'r'.repeat(400), { evictable: true });
    const pad = open({ maxStoreBytes: 1000 });
    const gc = await pad.gc();
    expect(gc.removed.map((item) => [item.name, item.reason])).toEqual([['result', 'cap']]);
    expect(await names(pad, 's1')).toEqual(['written']);
    const small = open({ maxStoreBytes: 500 });
    expect((await small.gc()).removed).toEqual([]);
    expect(await names(small, 's1')).toEqual(['written']);
  });

  test('evictable is part of the entry: false unless asked, kept on rewrite, changed by update', async () => {
    const pad = open();
    expect((await pad.write('s1', 'a', 'x')).entry.evictable).toBe(false);
    expect((await pad.write('s1', 'b', 'x', { evictable: true })).entry.evictable).toBe(true);
    expect((await pad.write('s1', 'b', 'y')).entry.evictable).toBe(true);
    expect((await pad.write('s1', 'b', 'z', { mode: 'append' })).entry.evictable).toBe(true);
    expect((await pad.update('s1', 'b', { evictable: false })).evictable).toBe(false);
    await expectCode(
      pad.write('s1', 'c', 'x', { evictable: 'yes' as unknown as boolean }),
      'INVALID_ARGUMENT',
    );
    await expectCode(open({ maxEntryBytes: 10 }).write('s1', 'too-big', 'x'.repeat(11)), 'CONTENT_TOO_LARGE');
  });
}
