import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import { createSqliteDriver } from './index.js';

describe('a search of a session found fully indexed', () => {
  const pads: Scratchpad[] = [];
  let directory: string | undefined;
  afterEach(async () => {
    for (const pad of pads.splice(0)) await pad.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('still indexes what this driver or another connection wrote since', async () => {
    directory = mkdtempSync(join(tmpdir(), 'scratchpad-indexed-sessions-'));
    const path = join(directory, 'store.db');
    const pad = createScratchpad({ driver: createSqliteDriver({ path }) });
    pads.push(pad);
    await pad.write('s1', 'first', 'an amber stone');
    expect((await pad.search('s1', 'amber')).hits.map((hit) => hit.entry.name)).toEqual(['first']);
    // The first searches find the session fully indexed (the first after a write may meet its indexing loop).
    for (let search = 0; search < 3; search++) expect((await pad.search('s1', 'basalt')).hits).toEqual([]);
    // Another connection (another process, as far as SQLite can tell) writes to the same session, and closes
    // before it could index what it wrote.
    const other = createScratchpad({ driver: createSqliteDriver({ path }) });
    await other.write('s1', 'second', 'a basalt column');
    await other.close();
    expect((await pad.search('s1', 'basalt')).hits.map((hit) => hit.entry.name)).toEqual(['second']);
    // This driver writes.
    await pad.write('s1', 'third', 'cobalt blue');
    expect((await pad.search('s1', 'cobalt')).hits.map((hit) => hit.entry.name)).toEqual(['third']);
    await pad.write('s1', 'third', 'dune sand');
    expect((await pad.search('s1', 'cobalt')).hits).toEqual([]);
    expect((await pad.search('s1', 'dune')).hits.map((hit) => hit.entry.name)).toEqual(['third']);
  });
});
