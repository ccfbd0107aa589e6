import { expect } from 'vitest';
import type { Entry } from '../core/entry.js';
import type { ScratchpadError } from '../core/errors.js';
import type { ListOptions, ListOrder } from '../service/listing/list-options.js';
import type { Scratchpad } from '../service/scratchpad.js';
import type { ContractHarness } from './contract-harness.js';
import { expectCode } from './expect-code.js';

const ORDERS: readonly ListOrder[] = ['name', 'createdAt', 'updatedAt'];

/** Every page of a listing, following `nextCursor` (at most 1,000 pages, so a cursor that loops fails the test). */
async function walk(pad: Scratchpad, options: ListOptions, between?: (page: number) => Promise<void>) {
  const pages: Entry[][] = [];
  let cursor: string | undefined;
  do {
    const page = await pad.list('s1', { ...options, ...(cursor === undefined ? {} : { cursor }) });
    pages.push(page.entries);
    cursor = page.nextCursor;
    if (cursor !== undefined) await between?.(pages.length);
  } while (cursor !== undefined && pages.length < 1000);
  return pages;
}

const names = (entries: readonly Entry[]): string[] => entries.map((entry) => entry.name);

/**
 * Paginated listing, the same on every backend: keyset pages in each order, an opaque cursor that is checked,
 * and pages that neither repeat nor skip an entry that exists the whole time, whatever is written or deleted
 * between them.
 */
export function pagingContract({ open, test, tick }: ContractHarness): void {
  test('pages of a listing: the given size, in order, the last without a cursor', async () => {
    const pad = open();
    // Three entries per clock value, so the time orders break ties by name across page boundaries.
    for (let index = 0; index < 23; index++) {
      if (index % 3 === 0) tick(1000);
      await pad.write('s1', `e-${String((index * 7) % 23).padStart(2, '0')}`, 'x');
    }
    for (const orderBy of ORDERS) {
      const whole = (await pad.list('s1', { orderBy })).entries;
      expect(whole).toHaveLength(23);
      const pages = await walk(pad, { orderBy, limit: 5 });
      expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
      expect(names(pages.flat())).toEqual(names(whole));
      const exact = await walk(pad, { orderBy, limit: 23 });
      expect(exact.map((page) => page.length)).toEqual([23]);
    }
    const byName = names((await pad.list('s1')).entries);
    expect(byName).toEqual([...byName].sort());
    const one = await pad.list('s1', { limit: 1 });
    expect(one.entries).toHaveLength(1);
    expect(typeof one.nextCursor).toBe('string');
    expect((await pad.list('s1', { limit: 100_000 })).nextCursor).toBeUndefined();
  });

  test('a page is full of live entries, whatever expired in between; filters page too', async () => {
    const pad = open();
    for (let index = 0; index < 12; index++) {
      const name = `${index % 2 === 0 ? 'a' : 'b'}-${String(index).padStart(2, '0')}`;
      await pad.write('s1', name, 'x', {
        ...(index % 3 === 0 ? { ttlMs: 1000 } : {}),
        ...(index === 3 ? { pinned: true } : {}),
        turn: index < 6 ? 't1' : 't2',
      });
    }
    tick(2000);
    const live = names((await pad.list('s1')).entries);
    expect(live).toEqual(['a-02', 'a-04', 'a-08', 'a-10', 'b-01', 'b-03', 'b-05', 'b-07', 'b-11']);
    expect(names((await walk(pad, { limit: 2 })).flat())).toEqual(live);
    expect((await walk(pad, { limit: 2 })).map((page) => page.length)).toEqual([2, 2, 2, 2, 1]);
    const prefixed = await walk(pad, { prefix: 'b-', limit: 2 });
    expect(names(prefixed.flat())).toEqual(['b-01', 'b-03', 'b-05', 'b-07', 'b-11']);
    const turn = await walk(pad, { turn: 't2', orderBy: 'createdAt', limit: 2 });
    expect(names(turn.flat())).toEqual(['a-08', 'a-10', 'b-07', 'b-11']);
  });

  test('a cursor carries its order: without orderBy it goes on in it, with another one it is refused', async () => {
    const pad = open();
    for (const name of ['c', 'a', 'd', 'b']) {
      tick(1000);
      await pad.write('s1', name, 'x');
    }
    const first = await pad.list('s1', { orderBy: 'createdAt', limit: 2 });
    expect(names(first.entries)).toEqual(['c', 'a']);
    const cursor = first.nextCursor as string;
    expect(names((await pad.list('s1', { cursor })).entries)).toEqual(['d', 'b']);
    expect(names((await pad.list('s1', { cursor, orderBy: 'createdAt' })).entries)).toEqual(['d', 'b']);
    const error: ScratchpadError = await expectCode(
      pad.list('s1', { cursor, orderBy: 'name' }),
      'INVALID_ARGUMENT',
    );
    expect(error.message).toContain('ordered by createdAt, not name');
    expect(error.details).toMatchObject({ option: 'cursor' });
    const byName = await pad.list('s1', { limit: 3 });
    expect(names((await pad.list('s1', { cursor: byName.nextCursor as string })).entries)).toEqual(['d']);
  });

  test('a cursor no listing made is INVALID_ARGUMENT naming the accepted form; nothing changes', async () => {
    const pad = open();
    await pad.write('s1', 'kept', 'x');
    const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
    const made = (await pad.list('s1', { limit: 1 })).nextCursor;
    expect(made).toBeUndefined();
    for (const cursor of [
      '',
      'x',
      'not a cursor!',
      '%%%',
      'a'.repeat(5000),
      encode({ v: 2, o: 'n', n: 'kept' }),
      encode({ v: 1, o: 'z', n: 'kept' }),
      encode({ v: 1, o: 'n', n: '../etc' }),
      encode({ v: 1, o: 'n', n: 'kept', t: 5 }),
      encode({ v: 1, o: 'c', n: 'kept' }),
      encode({ v: 1, o: 'u', n: 'kept', t: 1.5 }),
      encode(['kept']),
      encode(null),
      42,
      null,
      { after: 'kept' },
    ]) {
      const error: ScratchpadError = await expectCode(
        pad.list('s1', { cursor: cursor as string }),
        'INVALID_ARGUMENT',
      );
      expect(error.message).toContain('Invalid list cursor');
      expect(error.hint).toContain('nextCursor of the previous page unchanged');
      expect(error.details).toMatchObject({ option: 'cursor' });
    }
    expect(names((await pad.list('s1')).entries)).toEqual(['kept']);
  });

  test('pages never repeat or skip an entry that exists throughout, whatever is written or deleted between them', async () => {
    for (const orderBy of ORDERS) {
      const pad = open();
      const session = `paging-${orderBy}`;
      const all = Array.from({ length: 30 }, (_, index) => `k-${String(index * 2).padStart(3, '0')}`);
      for (const [index, name] of all.entries()) {
        if (index % 4 === 0) tick(1000);
        await pad.write(session, name, 'x');
      }
      const deleted = new Set<string>();
      const seen: string[] = [];
      let cursor: string | undefined;
      let round = 0;
      do {
        const page = await pad.list(session, {
          orderBy,
          limit: 4,
          ...(cursor === undefined ? {} : { cursor }),
        });
        seen.push(...names(page.entries));
        cursor = page.nextCursor;
        round++;
        // Between pages: names before and after the position, new ones at the current time, and deletions of
        // entries already listed and not yet listed.
        tick(500);
        await pad.write(session, `k-${String(round * 6 + 1).padStart(3, '0')}`, 'new');
        await pad.write(session, `a-new-${round}`, 'new');
        await pad.write(session, `z-new-${round}`, 'new');
        for (const victim of [all[round * 3], all[29 - round]]) {
          if (victim !== undefined && !deleted.has(victim)) {
            await pad.delete(session, victim);
            deleted.add(victim);
          }
        }
      } while (cursor !== undefined && round < 100);
      expect(cursor).toBeUndefined();
      expect(new Set(seen).size).toBe(seen.length);
      const throughout = all.filter((name) => !deleted.has(name));
      expect(throughout.length).toBeGreaterThan(5);
      for (const name of throughout) expect(seen).toContain(name);
    }
  });
}
