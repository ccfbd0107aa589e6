import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionValue as option, requireBuilt } from './lib/command-line.js';
import { logPieces } from './lib/log-text.js';
import { printTable, round } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const MB = 1_000_000;
const ENTRY_MB = 100;

async function* toAsync(pieces) {
  yield* pieces;
}

/**
 * A fresh store for one size: SQLite in a temporary directory, or a schema of its own on `url` (postgres://…);
 * `remove` deletes it.
 */
async function freshStore(url) {
  if (!url) {
    const { createSqliteDriver } = await import('../dist/stores/sqlite/index.js');
    const directory = await mkdtemp(join(tmpdir(), 'scratchpad-first-search-'));
    return {
      driver: createSqliteDriver({ path: join(directory, 'store.db') }),
      remove: () => rm(directory, { recursive: true, force: true }),
    };
  }
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`--store takes a postgres:// URL, got ${url}`);
  const { createPostgresDriver } = await import('../dist/stores/postgres/index.js');
  const schema = `scratchpad_first_search_${process.pid}`;
  const remove = async () => {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  };
  await remove();
  return { driver: await createPostgresDriver({ connectionString: url, schema }), remove };
}

/**
 * Runs the measurement for each size in MB, on SQLite or on the PostgreSQL server at `options.store`; returns
 * one figure per size.
 */
export async function measureFirstSearch(options = {}) {
  const sizes = options.sizes ?? [100, 1000];
  const log = options.log ?? (() => {});
  const { createScratchpad } = await import('../dist/index.js');
  const { probeEventLoop } = await import('../dist/testing/event-loop-probe.js');
  const figures = [];
  for (const size of sizes) {
    const { driver, remove } = await freshStore(options.store);
    try {
      const pad = createScratchpad({ driver });
      for (let written = 0, part = 0; written < size; written += ENTRY_MB, part++) {
        const megabytes = Math.min(ENTRY_MB, size - written);
        log(`${size} MB: writing part ${part + 1} (${megabytes} MB)`);
        await pad.write('bench', `log-${part}`, toAsync(logPieces(megabytes * MB, { seed: 11 + part })));
      }
      log(`${size} MB: first search`);
      let first;
      let firstMs;
      const probe = await probeEventLoop(async () => {
        const started = performance.now();
        first = await pad.search('bench', 'timeout error');
        firstMs = performance.now() - started;
        let latest = first;
        while (latest.indexing) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          latest = await pad.search('bench', 'timeout error');
        }
        return latest;
      });
      figures.push({
        store: options.store ? 'PostgreSQL' : 'SQLite',
        megabytes: size,
        firstAnswerMs: round(firstMs, 0),
        indexedAtFirstAnswer: first.indexing ? round(first.indexing.done / first.indexing.total, 3) : 1,
        completeMs: round(probe.durationMs, 0),
        worstDelayMs: round(probe.worstDelayMs, 1),
        worstBusyMs: round(probe.worstBusyMs, 1),
        p99DelayMs: round(probe.p99DelayMs, 1),
        hits: probe.value.hits.length,
      });
      await driver.close();
    } finally {
      await remove();
    }
  }
  return figures;
}

/** Prints {@link measureFirstSearch}'s figures as a table. */
export function printFirstSearch(figures) {
  printTable(
    [
      'store',
      'session',
      'first answer',
      'indexed then',
      'index complete',
      'worst loop delay',
      'p99',
      'worst busy',
      'target',
    ],
    figures.map((figure) => [
      figure.store,
      `${figure.megabytes} MB`,
      `${figure.firstAnswerMs} ms`,
      `${round(figure.indexedAtFirstAnswer * 100, 1)}%`,
      `${figure.completeMs} ms`,
      `${figure.worstDelayMs} ms`,
      `${figure.p99DelayMs} ms`,
      `${figure.worstBusyMs} ms`,
      figure.worstDelayMs <= 50 ? '≤ 50 ms ✓' : '≤ 50 ms ✗',
    ]),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  requireBuilt('bench:first-search');
  const figures = await measureFirstSearch({
    sizes: String(option('--sizes', '100,1000')).split(',').map(Number),
    store: option('--store', undefined),
    log: (message) => console.error(`· ${message}`),
  });
  printFirstSearch(figures);
  const output = option('--json', join(here, 'results', 'first-search.json'));
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, `${JSON.stringify({ startedAt: new Date().toISOString(), figures }, null, 2)}\n`);
  console.error(`· wrote ${output}`);
}
