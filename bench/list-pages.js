/**
 * Listing benchmark: `npm run bench:list-pages` (builds dist/ first).
 *
 * One session of N entries (default 100,000; `--entries N`) in a SQLite store (`--store postgres://…` for
 * PostgreSQL). Each measurement runs in a fresh child process, so its peak RSS is its own:
 * - `all`: every entry in one driver call (`doListEntries({session})` then `toEntry`): what `list()` did before it
 *   was paged;
 * - `page`: `list()`'s first page (1,000 entries, the default);
 * - `deep`: one page of 1,000 after a cursor near the end (keyset: the same cost as the first);
 * - `walk`: every entry through `entries()` (pages of 1,000).
 * Paired and alternated: each round runs `all` and `page` in an order that flips every round, then `deep` and
 * `walk`; the figures are medians and ranges over rounds of the wall time inside the child and its peak RSS
 * (`process.resourceUsage().maxRSS`). Options: --rounds N (default 3), --json PATH (default
 * bench/results/list-pages.json).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionValue } from './lib/command-line.js';
import { median, printTable, round } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');

function option(name, fallback) {
  return optionValue(`--${name}`, fallback);
}

const entries = Number(option('entries', '100000'));
const rounds = Number(option('rounds', '3'));
const storeOption = option('store', undefined);
const jsonPath = option('json', join(here, 'results', 'list-pages.json'));
const SESSION = 'bench-list';

async function openPad(store) {
  const { createScratchpad, openStore } = await import(join(dist, 'index.js'));
  return createScratchpad({ driver: await openStore(store) });
}

/** Fills the session once (entries of 20 bytes, names in a shuffled order so creation order differs). */
async function prepare(store) {
  const pad = await openPad(store);
  const existing = (await pad.sessions()).find((info) => info.id === SESSION);
  if (existing?.entries !== entries) {
    if (existing) await pad.deleteSession(SESSION);
    const started = Date.now();
    for (let index = 0; index < entries; index++) {
      const name = `e-${String((index * 7919) % entries).padStart(7, '0')}`;
      await pad.write(SESSION, name, `entry ${index} payload`);
      if (index % 10_000 === 9_999)
        process.stderr.write(`  written ${index + 1} (${Date.now() - started} ms)\n`);
    }
  }
  await pad.close();
}

/** One measurement in this (child) process: prints `{ms, rss, count}`. */
async function measure(store, mode) {
  const pad = await openPad(store);
  const { toEntry } = await import(join(dist, 'core', 'entry.js'));
  const before = await pad.list(SESSION, { limit: 1 }); // opens the store and warms the statement
  void before;
  let count = 0;
  const started = performance.now();
  if (mode === 'all') {
    count = (await pad.driver.doListEntries({ session: SESSION })).map(toEntry).length;
  } else if (mode === 'page') {
    count = (await pad.list(SESSION)).entries.length;
  } else if (mode === 'deep') {
    count = (await pad.list(SESSION, { cursor: deepCursor })).entries.length;
  } else if (mode === 'walk') {
    for await (const _entry of pad.entries(SESSION)) count++;
  }
  const ms = performance.now() - started;
  const rss = process.resourceUsage().maxRSS * 1024;
  await pad.close();
  process.stdout.write(JSON.stringify({ ms, rss, count }));
}

/** A cursor just before the last 1,001 names (made the way `list()` makes them: opaque to this script). */
let deepCursor;

async function main() {
  const mode = option('child', undefined);
  if (mode) {
    deepCursor = option('cursor', undefined);
    await measure(option('child-store', ''), mode);
    return;
  }
  if (!existsSync(join(dist, 'index.js'))) throw new Error('Run `npm run build` first.');
  const store = storeOption ?? `sqlite:${join(tmpdir(), `scratchpad-bench-list-${entries}.db`)}`;
  process.stderr.write(`store ${store}, ${entries.toLocaleString('en-US')} entries\n`);
  await prepare(store);
  // The cursor for `deep`: walk to a page that starts 1,001 entries before the end.
  const pad = await openPad(store);
  let cursor;
  const skip = Math.max(1, entries - 1001);
  const firstPart = await pad.list(SESSION, { limit: Math.min(skip, 100_000) });
  cursor = firstPart.nextCursor;
  for (let listed = firstPart.entries.length; listed < skip && cursor; ) {
    const page = await pad.list(SESSION, { cursor, limit: Math.min(skip - listed, 100_000) });
    listed += page.entries.length;
    cursor = page.nextCursor;
  }
  await pad.close();

  const child = (mode) => {
    const result = spawnSync(
      process.execPath,
      [
        fileURLToPath(import.meta.url),
        '--child',
        mode,
        '--child-store',
        store,
        ...(cursor ? ['--cursor', cursor] : []),
      ],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    if (result.status !== 0) throw new Error(`${mode} failed: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  const samples = { all: [], page: [], deep: [], walk: [] };
  for (let roundIndex = 0; roundIndex < rounds; roundIndex++) {
    const order = roundIndex % 2 === 0 ? ['all', 'page'] : ['page', 'all'];
    for (const mode of [...order, 'deep', 'walk']) samples[mode].push(child(mode));
  }
  const summary = Object.fromEntries(
    Object.entries(samples).map(([mode, runs]) => {
      const ms = runs.map((run) => run.ms);
      const rss = runs.map((run) => run.rss / 1024 / 1024);
      return [
        mode,
        {
          count: runs[0]?.count,
          msMedian: round(median(ms), 1),
          msRange: [round(Math.min(...ms), 1), round(Math.max(...ms), 1)],
          rssMiBMedian: round(median(rss), 1),
          rssMiBRange: [round(Math.min(...rss), 1), round(Math.max(...rss), 1)],
        },
      ];
    }),
  );
  const labels = {
    all: 'every entry in one call (list() before paging)',
    page: 'list() first page (1,000)',
    deep: 'list() page after a cursor near the end',
    walk: 'entries(): every entry, pages of 1,000',
  };
  printTable(
    ['listing', 'entries', 'ms (median)', 'ms range', 'peak RSS MiB (median)', 'RSS range'],
    Object.entries(summary).map(([mode, figures]) => [
      labels[mode],
      figures.count,
      figures.msMedian,
      figures.msRange.join('–'),
      figures.rssMiBMedian,
      figures.rssMiBRange.join('–'),
    ]),
  );
  await mkdir(dirname(jsonPath), { recursive: true });
  await writeFile(
    jsonPath,
    `${JSON.stringify({ store: store.replace(/\/\/[^@/]*@/, '//…@'), entries, rounds, summary }, null, 2)}\n`,
  );
  console.log(`\nwrote ${jsonPath}`);
}

await main();
