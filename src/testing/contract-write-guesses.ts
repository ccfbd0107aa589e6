import { expect } from 'vitest';
import type { StoreDriver } from '../stores/driver.js';
import type { ContractHarness } from './contract-harness.js';
import { expectCode } from './expect-code.js';

/**
 * A small write does not read the entry first: it guesses from what its service last committed (or that the name
 * is new) and the commit checks the guess (decision 006, fourth pass). Two services over one store stand for two
 * processes: what one changes, the other's guess does not know, and every write must still land on the entry as
 * stored, keep what a replace keeps (id, creation time, turn, pin, metadata) and refuse what the entry refuses.
 */
export function writeGuessContract({ open, test, tick, driver }: ContractHarness): void {
  test('a small write lands on the entry as stored when its guess is stale', async () => {
    const [mine, theirs] = [open(), open()];
    const gone = (await mine.write('s1', 'doc', 'mine')).entry;
    await theirs.delete('s1', 'doc');
    // Created again: version 1 like the one `mine` remembers, another id.
    const kept = {
      turn: 't1',
      step: 3,
      source: 'tool',
      pinned: true,
      evictable: true,
      metadata: { owner: 'them' },
    };
    const again = (await theirs.write('s1', 'doc', 'theirs', kept)).entry;
    expect(again.version).toBe(gone.version);
    const written = await mine.write('s1', 'doc', 'mine again');
    expect(written.created).toBe(false);
    expect(written.entry).toMatchObject({ ...kept, id: again.id, version: 2 });
    expect(written.entry.createdAt).toBe(again.createdAt);
    expect(written.previous).toEqual({ version: 1, bytes: 6, chars: 6 });

    // A name this service never wrote: it guesses "new", the commit finds the entry.
    await theirs.write('s1', 'other', 'theirs', { turn: 't2' });
    const replaced = await mine.write('s1', 'other', 'mine');
    expect(replaced).toMatchObject({ created: false, entry: { turn: 't2', version: 2 } });
    expect((await theirs.read('s1', 'other')).content).toBe('mine');
  });

  test('what a caller does to metadata after a write is not what the next write keeps', async () => {
    const pad = open();
    const given = { owner: 'alice', tags: ['a'] };
    const first = await pad.write('s1', 'doc', 'v1', { metadata: given });
    given.tags.push('b');
    (first.entry.metadata as { owner: string }).owner = 'mallory';
    const second = await pad.write('s1', 'doc', 'v2');
    expect(second.entry.metadata).toEqual({ owner: 'alice', tags: ['a'] });
    expect((await open().read('s1', 'doc')).entry.metadata).toEqual({ owner: 'alice', tags: ['a'] });
  });

  test("a stale guess neither refuses a create nor passes over another holder's lease", async () => {
    const [mine, theirs] = [open(), open()];
    await mine.write('s1', 'doc', 'v1');
    await theirs.delete('s1', 'doc');
    const created = await mine.write('s1', 'doc', 'created', { mode: 'create' });
    expect(created).toMatchObject({ created: true, entry: { version: 1 } });
    await expectCode(mine.write('s1', 'doc', 'twice', { mode: 'create' }), 'ENTRY_EXISTS');

    await theirs.session('s1', { agent: 'them' }).lease('doc', { ttlSeconds: 60 });
    await expectCode(mine.write('s1', 'doc', 'over the lease'), 'LEASED');
    expect((await mine.read('s1', 'doc')).content).toBe('created');
  });

  test('a guess at an entry that has expired since creates the name again', async () => {
    const pad = open();
    const first = (await pad.write('s1', 'doc', 'short-lived', { ttlMs: 1_000 })).entry;
    tick(1_001);
    const again = await pad.write('s1', 'doc', 'new');
    expect(again.created).toBe(true);
    expect(again.entry.id).not.toBe(first.id);
    expect((await pad.read('s1', 'doc')).content).toBe('new');
  });

  test('a small create or a replace of what the service wrote does not read the entry first', async () => {
    const store = driver();
    const reads = countEntryReads(store);
    const pad = open();
    await pad.write('s1', 'a', 'one');
    await pad.write('s1', 'a', 'two');
    await pad.write('s1', 'b', new Uint8Array([1, 2, 3]));
    expect(reads.count).toBe(0);
    // Appends, compare-and-set and contents over 64 KiB read it.
    await pad.write('s1', 'a', '+', { mode: 'append' });
    await pad.write('s1', 'a', 'three', { ifVersion: 3 });
    await pad.write('s1', 'a', 'x'.repeat(70_000));
    expect(reads.count).toBe(3);
    expect((await pad.read('s1', 'a')).content).toBe('x'.repeat(70_000));
  });
}

/** Counts `doGetEntry` calls on `store` from now on. */
function countEntryReads(store: StoreDriver): { count: number } {
  const reads = { count: 0 };
  const read = store.doGetEntry.bind(store);
  store.doGetEntry = (session, name) => {
    reads.count++;
    return read(session, name);
  };
  return reads;
}
