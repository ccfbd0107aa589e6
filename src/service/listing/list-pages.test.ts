import { describe, expect, it } from 'vitest';
import { collectAsync } from '../../core/collect-async.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createScratchpad } from '../scratchpad.js';
import { DEFAULT_LIST_LIMIT } from './list-options.js';

describe('paged listing in the service', () => {
  it('pages 1,000 entries by default; entries() and listForTurn walk every page', async () => {
    const pad = createScratchpad({ driver: createMemoryDriver() });
    const session = pad.session('big');
    const names = Array.from({ length: 2500 }, (_, index) => `e-${String(index).padStart(4, '0')}`);
    for (const name of names) await session.write(name, 'x', { turn: name < 'e-1200' ? 't1' : 't2' });

    const first = await session.list();
    expect(DEFAULT_LIST_LIMIT).toBe(1000);
    expect(first.entries).toHaveLength(1000);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await session.list({ cursor: first.nextCursor as string });
    expect(second.entries[0]?.name).toBe('e-1000');

    expect((await collectAsync(session.entries())).map((entry) => entry.name)).toEqual(names);
    expect(await collectAsync(session.entries({ prefix: 'e-24' }))).toHaveLength(100);
    expect(await session.listForTurn('t1')).toHaveLength(1200);
    expect(await pad.listForTurn('big', 't2')).toHaveLength(1300);
  });

  it("a view's pages and entries() stay inside its prefix", async () => {
    const pad = createScratchpad({ driver: createMemoryDriver() });
    const session = pad.session('s');
    for (let index = 0; index < 1100; index++) {
      await session.write(`a.${String(index).padStart(4, '0')}`, 'x');
      if (index % 100 === 0) await session.write(`b.${index}`, 'x');
    }
    const view = session.view({ prefix: 'b.' });
    expect((await collectAsync(view.entries())).map((entry) => entry.name)).toHaveLength(11);
    const all = await collectAsync(session.view({ prefix: 'a.' }).entries());
    expect(all).toHaveLength(1100);
    expect(all.every((entry) => entry.name.startsWith('a.'))).toBe(true);
    expect(await collectAsync(view.entries({ prefix: 'a.' }))).toEqual([]);
  });
});
