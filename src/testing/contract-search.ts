import { expect } from 'vitest';
import type { ContractHarness } from './contract-harness.js';
import { expectCode } from './expect-code.js';

/** How long the contract waits for a session's index to complete before it fails the test. */
const INDEX_DEADLINE_MS = 60_000;

/**
 * Full-text search, the same on every backend: ranked hits with snippets, one session only, and a search that
 * comes while the index is still being built answers at once from the part indexed so far, saying how far it got,
 * until the index is complete and the answer is whole.
 */
export function searchContract({ open, test }: ContractHarness): void {
  test('search ranks entries by the query words with snippets', async () => {
    const pad = open();
    await pad.write(
      's1',
      'deploy-notes',
      'We deploy with blue green deployment. The database migration runs first.',
    );
    await pad.write('s1', 'shopping', 'milk, eggs, bread');
    await pad.write('s1', 'db', 'database database database: postgres migration plan');
    await pad.write('s2', 'elsewhere', 'database in another session');
    const hits = (await pad.search('s1', 'database migration')).hits;
    expect(hits.map((hit) => hit.entry.name)).toEqual(['db', 'deploy-notes']);
    expect(hits[0]?.snippet.toLowerCase()).toContain('[database]');
    expect((await pad.search('s1', 'zebra')).hits).toEqual([]);
    await expectCode(pad.search('s1', '   '), 'INVALID_ARGUMENT');
  });

  test(
    'a search during indexing answers from the indexed part and says how far it got, until it is whole',
    async () => {
      const pad = open({ chunkSize: 64 * 1024 });
      const filler = Array.from(
        { length: 120_000 },
        (_, line) => `${line} worker-${line % 7} handled request ${line * 31} in ${line % 97} ms`,
      ).join('\n');
      await pad.write('s1', 'log', `${filler}\nthe rare word quokka at the very end\n`);
      await pad.write('s1', 'note', 'a quokka was seen');
      await pad.write('s2', 'other', 'a quokka in another session');
      const deadline = Date.now() + INDEX_DEADLINE_MS;
      let answers = 0;
      for (;;) {
        const { hits, indexing } = await pad.search('s1', 'quokka');
        answers += 1;
        const names = hits.map((hit) => hit.entry.name).sort();
        for (const name of names) expect(['log', 'note']).toContain(name);
        expect(new Set(names).size).toBe(names.length);
        if (indexing === undefined) {
          expect(names).toEqual(['log', 'note']);
          break;
        }
        expect(Number.isSafeInteger(indexing.done) && Number.isSafeInteger(indexing.total)).toBe(true);
        expect(indexing.done).toBeGreaterThanOrEqual(0);
        expect(indexing.done).toBeLessThan(indexing.total);
        if (Date.now() > deadline) {
          throw new Error(
            `the index was not complete after ${answers} searches: ${JSON.stringify(indexing)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // A complete index stays complete: the next search says nothing about indexing.
      expect((await pad.search('s1', 'quokka')).indexing).toBeUndefined();
    },
    INDEX_DEADLINE_MS + 30_000,
  );

  test(
    'finishIndexing indexes the whole session with progress, so the next search is whole',
    async () => {
      const pad = open({ chunkSize: 64 * 1024 });
      const filler = (from: number) =>
        Array.from(
          { length: 60_000 },
          (_, line) => `${from + line} worker-${line % 7} handled request ${line * 31} in ${line % 97} ms`,
        ).join('\n');
      await pad.write('s1', 'log', `${filler(0)}\nthe rare word quokka in the middle\n${filler(60_000)}\n`);
      await pad.write('s2', 'other', 'a quokka in another session');
      const reports: { done: number; total: number }[] = [];
      const final = await pad.finishIndexing('s1', { onProgress: (progress) => reports.push(progress) });
      if (final !== undefined) {
        // A store with a background index: it reported its way to the end, never past the total.
        expect(final.done).toBe(final.total);
        expect(final.total).toBeGreaterThan(60_000 * 40);
        expect(reports.at(-1)).toEqual(final);
        for (const report of reports) expect(report.done).toBeLessThanOrEqual(report.total);
      } else {
        expect(reports).toEqual([]);
      }
      const { hits, indexing } = await pad.search('s1', 'quokka');
      expect(indexing).toBeUndefined();
      expect(hits.map((hit) => hit.entry.name)).toEqual(['log']);
      // An aborted wait rejects with the signal's reason and leaves the store usable.
      await pad.write('s1', 'more', `${filler(200_000)}\nquokka again\n`);
      const stop = new AbortController();
      stop.abort(new Error('stopped by the test'));
      if (final !== undefined) {
        await expect(pad.finishIndexing('s1', { signal: stop.signal })).rejects.toThrow(
          'stopped by the test',
        );
      }
      await pad.finishIndexing('s1');
      expect((await pad.search('s1', 'quokka')).hits.map((hit) => hit.entry.name).sort()).toEqual([
        'log',
        'more',
      ]);
      await expectCode(pad.finishIndexing('no/such session'), 'INVALID_NAME');
    },
    INDEX_DEADLINE_MS,
  );
}
