import { afterEach, describe, expect, it } from 'vitest';
import { createScratchpad } from '../../service/scratchpad.js';
import { testRecord } from '../../testing/test-record.js';
import { createSqliteDriver, type SqliteDriver } from './index.js';
import { rankInSlices } from './rank-in-slices.js';
import { SearchIndex } from './sqlite-search.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';
import { TurnBudget } from './turn-budget.js';

const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'glacier', 'harbor', 'iris', 'jade'];

/** `count` words drawn from {@link WORDS} with a fixed seed, so entries share words in different amounts. */
function words(count: number, seed: number): string {
  let state = seed;
  const out: string[] = [];
  for (let index = 0; index < count; index += 1) {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    out.push(WORDS[(state >> 8) % WORDS.length] as string);
  }
  return out.join(' ');
}

describe('ranking in slices of chunk ids', () => {
  let driver: SqliteDriver | undefined;
  afterEach(async () => driver?.close());

  it('answers what one query over the whole index answers, whatever the limit', async () => {
    const database = openRawConnection(':memory:');
    driver = createSqliteDriver({ database });
    // 64-character chunks: 80 entries of ~1,300 characters are ~1,600 chunk ids, several slices.
    const pad = createScratchpad({ driver, chunkSize: 64 });
    for (let entry = 0; entry < 80; entry += 1) {
      await pad.write('s1', `entry-${String(entry).padStart(2, '0')}`, words(150 + entry * 3, entry + 1));
    }
    await pad.write('s2', 'other-session', words(400, 99));
    let result = await pad.search('s1', 'amber');
    while (result.indexing) result = await pad.search('s1', 'amber');
    const search = new SearchIndex(database, undefined);
    const last = search.lastChunk();
    expect(last).toBeGreaterThan(1500);
    for (const query of ['amber', 'basalt OR jade', '"cobalt dune"', 'entry']) {
      for (const limit of [1, 5, 20, 200]) {
        const whole = search.rank('s1', query, limit, 0, last + 1);
        let slices = 0;
        const sliced = await rankInSlices(
          {
            rank: (from, to, sliceLimit) => {
              slices += 1;
              return search.rank('s1', query, sliceLimit, from, to);
            },
            lastChunk: () => last,
          },
          limit,
          new TurnBudget(0),
        );
        expect(slices).toBeGreaterThan(1);
        expect(sliced.map((hit) => [hit.record.name, hit.rank, hit.chunk])).toEqual(
          whole.map((hit) => [hit.record.name, hit.rank, hit.chunk]),
        );
      }
    }
  });

  it('keeps one hit per entry when it was replaced between two slices: the newer version', async () => {
    const old = testRecord({ session: 's1', name: 'log', version: 1, contentId: '1' });
    const replaced = testRecord({ session: 's1', name: 'log', version: 2, contentId: '2' });
    const other = testRecord({ session: 's1', name: 'notes', version: 1, contentId: '3' });
    // An early slice still saw the old content (a better rank); a later slice saw the new one.
    const hits = [
      { record: old, rank: -9, chunk: 10 },
      { record: other, rank: -3, chunk: 300 },
      { record: replaced, rank: -5, chunk: 900 },
    ];
    let slices = 0;
    const sliced = await rankInSlices(
      {
        rank: (from, to) => {
          slices += 1;
          return hits.filter((hit) => hit.chunk >= from && hit.chunk < to);
        },
        lastChunk: () => 1000,
      },
      10,
      new TurnBudget(0),
    );
    expect(slices).toBeGreaterThan(1);
    expect(sliced.map((hit) => [hit.record.name, hit.record.version, hit.chunk])).toEqual([
      ['log', 2, 900],
      ['notes', 1, 300],
    ]);
  });
});
