/**
 * Store benchmark: `npm run bench:store [-- options]` (builds dist/ first, then `node --expose-gc bench/store.js`).
 *
 * Runs the same measurements through the service on SQLite (a file store in a temporary directory) and on every
 * `--store postgres://…` given (a schema of its own, dropped at the end), and prints them side by side:
 *   1. offload: a 100 MiB write, paired with fs.writeFile + fsync of the same bytes; the order alternates pair by
 *      pair and the figure is the median (and range) of the per-pair ratios, so machine load hits both sides;
 *   2. grep of the big entry (default 1 GiB, streamed in) for a literal, an alternation, a case-insensitive
 *      pattern and a literal that never matches, each alternated with `rg -c --mmap` and `rg -c --no-mmap` on the
 *      same bytes in a file read in once beforehand (ripgrep's best case; answers must agree), and the
 *      worst event-loop delay seen during one grep of each (perf_hooks.monitorEventLoopDelay), and the worst busy
 *      interval (CPU-bounded, which a loaded machine does not inflate);
 *   3. random 2,000-character range reads of 1 MiB, 100 MiB and the big entry, warm (page cache as it is) and
 *      cold (the store's files dropped from the page cache before every read with posix_fadvise DONTNEED, through
 *      GNU dd, and the store reopened; SQLite only: PostgreSQL's cache is the server's);
 *   4. peak RSS while reading slices of the big entry, in a fresh child process (SQLite);
 *   5. small writes against raw SQLite statements (`measureSmallWrites` of bench/small-writes.js), SQLite, and the
 *      first search with its worst event-loop delay (`measureFirstSearch` of bench/first-search.js), on every store.
 * Prints tables with the targets and writes bench/results/store.json. Options:
 *   --size-mib N     size of the big entry (default 1024)        --pairs N   pairs per comparison (default 5)
 *   --reads N        warm reads per entry (default 1000)          --cold-reads N  cold reads (default 100)
 *   --store URL      also run on this store (postgres://… or fs; repeatable)      --keep  keep the directory
 *   --first-search-mb 100,1000  sizes of the first-search runs   --no-companions  skip small writes and first search
 *   --store fs       also run on a fs store (its directory in the temporary one; grep and range reads, warm)
 *   --only grep      only the big entry and its grep comparisons (no offload, reads, memory or companions)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteConnection } from '../dist/stores/sqlite/sqlite-binding.js';
import { measureFirstSearch, printFirstSearch } from './first-search.js';
import { optionValue, requireBuilt } from './lib/command-line.js';
import { logBuffer, logPieces, random } from './lib/log-text.js';
import { MIB, median, printTable, quantile, round, time } from './lib/measure.js';
import { dropFromPageCache, pageCacheUnavailable, residentBytes } from './lib/page-cache.js';
import { measureSmallWrites, printSmallWrites } from './small-writes.js';

const here = dirname(fileURLToPath(import.meta.url));
requireBuilt('bench:store');
const { createScratchpad } = await import('../dist/index.js');
const { createSqliteDriver } = await import('../dist/stores/sqlite/index.js');
const { createFsDriver } = await import('../dist/stores/fs/index.js');
const { probeEventLoop } = await import('../dist/testing/event-loop-probe.js');

const given = process.argv.slice(2);
const option = (flag, fallback) => Number(optionValue(flag, fallback, given));
const SIZE_MIB = option('--size-mib', 1024);
const PAIRS = option('--pairs', 5);
const READS = option('--reads', 1000);
const COLD_READS = option('--cold-reads', 100);
const KEEP = given.includes('--keep');
const FIRST_SEARCH_MB = given.includes('--first-search-mb')
  ? String(given[given.indexOf('--first-search-mb') + 1])
      .split(',')
      .map(Number)
  : [100, 1000];
const STORE_URLS = given.flatMap((value, index) => (given[index - 1] === '--store' ? [value] : []));
const ONLY = given.includes('--only') ? String(given[given.indexOf('--only') + 1]) : undefined;
if (ONLY !== undefined && ONLY !== 'grep') throw new Error(`--only takes grep, got ${ONLY}`);
const ONLY_GREP = ONLY === 'grep';
const SESSION = 'bench';
const RIPGREP = ['/usr/bin/rg', '/usr/local/bin/rg'].find((path) => existsSync(path));
const PATTERNS = [
  { label: 'literal ERROR', pattern: 'ERROR', ignoreCase: false, target: 0.5 },
  { label: 'alternation timeout|declined', pattern: 'timeout|declined', ignoreCase: false, target: 0.5 },
  { label: 'case-insensitive -i error', pattern: 'error', ignoreCase: true, target: 0.5 },
  // A literal that occurs nowhere: ripgrep's best case (memchr over the whole file, nothing to report).
  { label: 'literal that never matches', pattern: 'QUUXNEVERMATCHES', ignoreCase: false, target: 0.3 },
];
/** ripgrep both ways: memory-mapping the file and reading it (its default for one large file is to map it). */
const RIPGREP_MODES = ['--mmap', '--no-mmap'];

const directory = await mkdtemp(join(tmpdir(), 'scratchpad-bench-'));
const cleanups = [];
const cleanup = async () => {
  for (const step of cleanups.reverse()) await step().catch(() => {});
  if (!KEEP) await rm(directory, { recursive: true, force: true });
};
process.once('SIGINT', () => {
  cleanup().finally(() => process.exit(130));
});
const log = (message) => console.error(`· ${message}`);

const results = {
  startedAt: new Date().toISOString(),
  environment: environment(),
  options: { sizeMiB: SIZE_MIB, pairs: PAIRS, reads: READS, coldReads: COLD_READS, only: ONLY ?? null },
  stores: [],
};

try {
  // The plain-file side of every comparison: the big entry's bytes in a file, for rg.
  const bigPath = join(directory, 'big.log');
  log(`generating ${SIZE_MIB} MiB of log text into a plain file`);
  const bigFile = await open(bigPath, 'w');
  for (const piece of logPieces(SIZE_MIB * MIB, { seed: 3 })) await bigFile.write(piece);
  await bigFile.sync();
  await bigFile.close();
  // ripgrep at its best: a file read in once the normal way, not one just written and fsynced (on that one rg -c
  // took 0.77–0.83 s per GiB against 0.12 s once read in).
  log(`reading the plain file in once (${SIZE_MIB} MiB) so that ripgrep runs on a warm page cache`);
  await warmFile(bigPath);

  for (const store of [
    { label: 'SQLite', url: undefined },
    ...STORE_URLS.map((url) => ({ label: labelOf(url), url })),
  ]) {
    log(`— ${store.label} —`);
    results.stores.push(await benchStore(store, bigPath));
  }
  results.companions = ONLY_GREP ? { skipped: '--only grep' } : await companions();
  report(results);
  await mkdir(join(here, 'results'), { recursive: true });
  await writeFile(join(here, 'results', 'store.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote bench/results/store.json${KEEP ? `; kept ${directory}` : ''}`);
} finally {
  await cleanup();
}

/** One store's figures. */
async function benchStore(store, bigPath) {
  const opened = await openStore(store);
  let pad = createScratchpad({ driver: opened.driver });
  const out = { store: store.label };

  // 1. Offload: 100 MiB through Scratchpad.write, paired and alternated with writeFile + fsync.
  if (!ONLY_GREP) await offload(pad, out);

  // 2. The big entry, streamed in, and grep against rg on the same bytes.
  await bigEntryGrep(pad, out, bigPath);
  if (ONLY_GREP) {
    await pad.close();
    await opened.close();
    return out;
  }

  // 3. Random 2,000-character range reads, warm and cold.
  await pad.write(SESSION, 'log-1m', logBuffer(1 * MIB, { seed: 1 }));
  const entries = [
    ['1 MiB', 'log-1m'],
    ['100 MiB', 'log-100m'],
    [`${SIZE_MIB} MiB`, 'log-big'],
  ];
  out.reads = [];
  for (const [label, name] of entries) {
    log(`${READS} warm reads of ${label}`);
    const samples = await rangeReads(pad, name, READS, 11);
    out.reads.push({
      entry: label,
      name,
      reads: READS,
      medianMs: round(median(samples), 4),
      p95Ms: round(quantile(samples, 0.95), 4),
    });
  }
  const coldUnavailable = opened.files ? pageCacheUnavailable() : opened.noColdReads;
  if (coldUnavailable) {
    out.coldReads = { skipped: coldUnavailable };
  } else {
    await pad.close();
    opened.checkpoint();
    out.coldReads = {
      method: 'posix_fadvise(DONTNEED) on store.db, -wal and side files via dd, store reopened',
      rows: [],
    };
    for (const [label, name] of entries) {
      log(`${COLD_READS} cold reads of ${label}`);
      const samples = [];
      let resident;
      const next = random(23);
      for (let index = 0; index < COLD_READS; index++) {
        const reopened = createScratchpad({ driver: opened.reopen() });
        const entry = await reopened.get(SESSION, name);
        const start = Math.floor(next() * (entry.chars - 2000));
        dropFromPageCache(opened.files());
        if (index === 0)
          resident = opened.files().reduce((sum, path) => sum + (residentBytes(path) ?? Number.NaN), 0);
        const read = await time(() =>
          reopened.read(SESSION, name, { type: 'range', start, end: start + 2000 }),
        );
        if ([...read.value.content].length !== 2000) throw new Error(`a cold read of ${name} was short`);
        samples.push(read.ms);
        await reopened.close();
      }
      out.coldReads.rows.push({
        entry: label,
        reads: COLD_READS,
        medianMs: round(median(samples), 3),
        p95Ms: round(quantile(samples, 0.95), 3),
        residentBytesAfterDrop: resident,
      });
    }
    pad = createScratchpad({ driver: opened.reopen() });
  }
  await pad.close();

  // 4. Peak RSS reading slices of the big entry in a fresh process (SQLite).
  if (opened.databasePath) {
    log('reading slices of the big entry in a child process');
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', join(here, 'lib', 'read-memory.js'), opened.databasePath, SESSION, 'log-big'],
      { encoding: 'utf8' },
    );
    if (child.status !== 0) throw new Error(`memory child failed: ${child.stderr}`);
    out.memory = JSON.parse(child.stdout.trim().split('\n').pop());
  }
  await opened.close();
  return out;
}

/** Offload: 100 MiB through Scratchpad.write, paired and alternated with writeFile + fsync. */
async function offload(pad, out) {
  let buffer = logBuffer(100 * MIB, { seed: 7 });
  const plainPath = join(directory, 'plain.log');
  const plainWrite = async () => {
    const handle = await open(plainPath, 'w');
    await handle.writeFile(buffer);
    await handle.sync();
    await handle.close();
  };
  const offload = await paired(`offload 100 MiB`, () => pad.write(SESSION, 'log-100m', buffer), plainWrite);
  out.offload = {
    bytes: buffer.byteLength,
    ...offload.summary,
    scratchpadMiBps: round(buffer.byteLength / MIB / (median(offload.oursMs) / 1000), 1),
    plainMiBps: round(buffer.byteLength / MIB / (median(offload.theirsMs) / 1000), 1),
  };
  buffer = undefined;
  globalThis.gc?.();
}

/** The big entry, streamed in, and grep of it alternated with rg (mapped and read) on the same bytes in a file. */
async function bigEntryGrep(pad, out, bigPath) {
  log(`writing the ${SIZE_MIB} MiB entry (streamed)`);
  const big = await time(() =>
    pad.write(SESSION, 'log-big', toAsync(logPieces(SIZE_MIB * MIB, { seed: 3 }))),
  );
  out.streamedWrite = {
    bytes: big.value.entry.bytes,
    ms: round(big.ms, 0),
    MiBps: round(big.value.entry.bytes / MIB / (big.ms / 1000), 1),
  };
  out.grep = [];
  for (const { label, pattern, ignoreCase, target } of PATTERNS) {
    const options = { pattern, ignoreCase, maxMatches: 10, timeoutMs: 3_600_000 };
    const row = { label, pattern, ignoreCase, target, bytes: big.value.entry.bytes };
    if (RIPGREP) {
      const counts = {};
      const sides = {
        scratchpad: async () => {
          counts.scratchpad = (await pad.grep(SESSION, 'log-big', options)).total;
        },
      };
      for (const mode of RIPGREP_MODES) {
        sides[`rg ${mode}`] = async () => {
          const args = ['-c', mode, ...(ignoreCase ? ['-i'] : []), pattern, bigPath];
          const result = spawnSync(RIPGREP, args, { encoding: 'utf8' });
          // rg -c prints nothing and exits 1 when no line matches.
          if (result.status !== 0 && !(result.status === 1 && result.stdout === '')) {
            throw new Error(`rg failed: ${result.stderr}`);
          }
          counts[`rg ${mode}`] = Number(result.stdout.trim() || '0');
        };
      }
      const timed = await alternated(`grep ${label}`, sides);
      for (const [side, count] of Object.entries(counts)) {
        if (count !== counts.scratchpad)
          throw new Error(`grep ${pattern}: scratchpad counted ${counts.scratchpad} lines, ${side} ${count}`);
      }
      const mib = row.bytes / MIB;
      const ours = timed.scratchpad;
      // Each round's best ripgrep (the faster of its two modes in that round) against scratchpad in that round.
      const best = ours.map((_, index) =>
        Math.min(...RIPGREP_MODES.map((mode) => timed[`rg ${mode}`][index])),
      );
      const ratios = best.map((ms, index) => ms / ours[index]);
      Object.assign(row, {
        pairs: PAIRS,
        scratchpadMs: ours.map((ms) => round(ms, 1)),
        ripgrepMs: Object.fromEntries(
          RIPGREP_MODES.map((mode) => [mode, timed[`rg ${mode}`].map((ms) => round(ms, 1))]),
        ),
        scratchpadMiBps: round(mib / (median(ours) / 1000), 1),
        ripgrepMiBps: Object.fromEntries(
          RIPGREP_MODES.map((mode) => [mode, round(mib / (median(timed[`rg ${mode}`]) / 1000), 1)]),
        ),
        ratioMedian: round(median(ratios), 3),
        ratioMin: round(Math.min(...ratios), 3),
        ratioMax: round(Math.max(...ratios), 3),
      });
    }
    const probe = await probeEventLoop(() => pad.grep(SESSION, 'log-big', options));
    row.matchingLines = probe.value.total;
    row.worstEventLoopDelayMs = round(probe.worstDelayMs, 1);
    // The longest the loop was busy (CPU-bounded): a loaded machine delays timers of an idle loop too.
    row.worstEventLoopBusyMs = round(probe.worstBusyMs, 1);
    out.grep.push(row);
  }
  if (!RIPGREP)
    console.error('ripgrep not found: install it to compare grep throughput (apt-get install ripgrep).');
}

/**
 * Runs every side once per round, PAIRS rounds, the order rotated each round (so each side goes first, middle and
 * last alike, and a machine that slows down weighs on all of them); the milliseconds of each side by round.
 */
async function alternated(label, sides) {
  const names = Object.keys(sides);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let turn = 0; turn < PAIRS; turn++) {
    log(`${label}: round ${turn + 1}/${PAIRS}`);
    const order = names.map((_, index) => names[(index + turn) % names.length]);
    const lap = {};
    for (const name of order) {
      globalThis.gc?.();
      lap[name] = (await time(sides[name])).ms;
    }
    for (const name of names) times[name].push(lap[name]);
  }
  return times;
}

/** Reads `path` whole once with plain reads, so the page cache holds it the way a normal read leaves it. */
async function warmFile(path) {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(8 * MIB);
    while ((await handle.read(buffer, 0, buffer.length, null)).bytesRead > 0);
  } finally {
    await handle.close();
  }
}

async function paired(label, ours, theirs) {
  const oursMs = [];
  const theirsMs = [];
  const ratios = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    log(`${label}: pair ${pair + 1}/${PAIRS}`);
    globalThis.gc?.();
    let a;
    let b;
    if (pair % 2 === 0) {
      a = (await time(ours)).ms;
      globalThis.gc?.();
      b = (await time(theirs)).ms;
    } else {
      b = (await time(theirs)).ms;
      globalThis.gc?.();
      a = (await time(ours)).ms;
    }
    oursMs.push(a);
    theirsMs.push(b);
    ratios.push(b / a);
  }
  return {
    oursMs,
    theirsMs,
    summary: {
      pairs: PAIRS,
      scratchpadMs: oursMs.map((ms) => round(ms, 1)),
      otherMs: theirsMs.map((ms) => round(ms, 1)),
      ratioMedian: round(median(ratios), 3),
      ratioMin: round(Math.min(...ratios), 3),
      ratioMax: round(Math.max(...ratios), 3),
    },
  };
}

async function rangeReads(pad, name, count, seed) {
  const entry = await pad.get(SESSION, name);
  const next = random(seed);
  const rangeRead = async () => {
    const start = Math.floor(next() * (entry.chars - 2000));
    const read = await pad.read(SESSION, name, { type: 'range', start, end: start + 2000 });
    if ([...read.content].length !== 2000)
      throw new Error(`a read of ${name} returned ${[...read.content].length} characters`);
  };
  for (let warm = 0; warm < 50; warm++) await rangeRead();
  const samples = [];
  for (let index = 0; index < count; index++) samples.push((await time(rangeRead)).ms);
  return samples;
}

/** A driver for `store`, with what the cold reads need (its files, reopening, a checkpoint). */
async function openStore(store) {
  if (store.url === undefined) {
    const databasePath = join(directory, 'store.db');
    const driver = createSqliteDriver({ path: databasePath });
    const database = openSqliteConnection(databasePath);
    results.environment.sqlite = database.prepare('SELECT sqlite_version() AS version').get().version;
    return {
      driver,
      databasePath,
      reopen: () => createSqliteDriver({ path: databasePath }),
      checkpoint: () => database.exec('PRAGMA wal_checkpoint(TRUNCATE)'),
      files: () => {
        const blobs = `${databasePath}.blobs`;
        const sideFiles = existsSync(blobs) ? readdirSync(blobs).map((name) => join(blobs, name)) : [];
        return [databasePath, `${databasePath}-wal`, ...sideFiles];
      },
      close: async () => database.close(),
    };
  }
  if (store.url === 'fs') {
    const root = join(directory, 'fs-store');
    return {
      driver: createFsDriver({ root }),
      noColdReads: 'not measured on the fs store',
      close: async () => {},
    };
  }
  const { createPostgresDriver } = await import('../dist/stores/postgres/index.js');
  const schema = `scratchpad_bench_${process.pid}`;
  const driver = await createPostgresDriver({ connectionString: store.url, schema });
  const pg = (await import('pg')).default;
  const dropSchema = async () => {
    const client = new pg.Client({ connectionString: store.url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  };
  cleanups.push(dropSchema);
  return {
    driver,
    noColdReads: 'the server owns its cache (shared_buffers and its files)',
    close: async () => {},
  };
}

/**
 * Figures of the companion benchmarks (bench/small-writes.js, bench/first-search.js), run in this process. Both
 * are imported above (their tables are printed from there), so they always exist: only `--no-companions` and
 * `--only grep` skip them, and the report says so.
 */
async function companions() {
  if (given.includes('--no-companions')) return { skipped: '--no-companions' };
  log('small writes vs raw SQLite statements (bench/small-writes.js)');
  const smallWrites = [await measureSmallWrites({ log })];
  // Against a raw `pg` insert at the server's durability (the fs store has no raw engine to compare with).
  for (const url of STORE_URLS.filter((url) => url !== 'fs')) {
    log(`small writes vs raw pg inserts, ${labelOf(url)}`);
    smallWrites.push(await measureSmallWrites({ log, store: url }));
  }
  log(`first search on ${FIRST_SEARCH_MB.join(', ')} MB (bench/first-search.js)`);
  const firstSearch = await measureFirstSearch({ sizes: FIRST_SEARCH_MB, log });
  // The fs store has no full-text index to build (it searches by scan): PostgreSQL stores only.
  for (const url of STORE_URLS.filter((url) => url !== 'fs')) {
    log(`first search on ${FIRST_SEARCH_MB.join(', ')} MB, ${labelOf(url)}`);
    firstSearch.push(...(await measureFirstSearch({ sizes: FIRST_SEARCH_MB, log, store: url })));
  }
  return { smallWrites, firstSearch };
}

function report(results) {
  const stores = results.stores;
  const header = (title) => [title, ...stores.map((store) => store.store)];
  console.log(
    `\nStore benchmark (SQLite ${results.environment.sqlite}, Node ${results.environment.node}, ${results.environment.cpus} CPUs, load ${results.environment.loadavg.join(' ')}; ${PAIRS} alternated pairs per comparison)\n`,
  );
  if (!ONLY_GREP)
    printTable(header('offload 100 MiB vs writeFile+fsync'), [
      ['Scratchpad.write MiB/s', ...stores.map((store) => store.offload.scratchpadMiBps)],
      ['writeFile+fsync MiB/s', ...stores.map((store) => store.offload.plainMiBps)],
      ['per-pair ratio: median (range)', ...stores.map((store) => ratioText(store.offload))],
    ]);
  printTable(header('the big entry'), [
    [
      `${SIZE_MIB} MiB streamed write MiB/s (incl. generating)`,
      ...stores.map((store) => store.streamedWrite.MiBps),
    ],
  ]);
  console.log('');
  const grepRows = [];
  for (const [index, { label }] of PATTERNS.entries()) {
    grepRows.push([
      `${label}: Scratchpad MiB/s`,
      ...stores.map((store) => store.grep[index].scratchpadMiBps ?? 'n/a'),
    ]);
    for (const mode of RIPGREP_MODES) {
      grepRows.push([
        `  rg -c ${mode} MiB/s (warm file)`,
        ...stores.map((store) => store.grep[index].ripgrepMiBps?.[mode] ?? 'n/a'),
      ]);
    }
    grepRows.push([
      `  rg time / ours, vs rg's faster mode: median (range)`,
      ...stores.map((store) => ratioText(store.grep[index])),
    ]);
    grepRows.push([
      `  worst event-loop delay ms`,
      ...stores.map((store) => store.grep[index].worstEventLoopDelayMs),
    ]);
    grepRows.push([
      `  worst event-loop busy ms`,
      ...stores.map((store) => store.grep[index].worstEventLoopBusyMs),
    ]);
  }
  printTable(header(`grep ${SIZE_MIB} MiB`), grepRows);
  if (!ONLY_GREP) reportReadsAndMemory(results, header);
  reportCompanions(results.companions);

  const targets = [];
  const target = (name, value, text, pass) => targets.push({ name, value, target: text, pass });
  for (const store of stores) {
    if (!ONLY_GREP) readAndOffloadTargets(store, target);
    for (const grep of store.grep) {
      if (grep.ratioMedian !== undefined)
        target(
          `${store.store}: grep ${grep.label} vs rg -c (warm file, its faster mode)`,
          grep.ratioMedian,
          `>= ${grep.target}x`,
          grep.ratioMedian >= grep.target,
        );
      // Busy, not delay: on a loaded machine a timer of an idle loop is late too (the delay is printed above).
      target(
        `${store.store}: worst event-loop busy interval during grep ${grep.label}, ms`,
        grep.worstEventLoopBusyMs,
        '<= 50 ms',
        grep.worstEventLoopBusyMs <= 50,
      );
    }
  }
  if (!ONLY_GREP) {
    const memory = stores[0].memory;
    target(
      'peak RSS reading slices of the big entry (MiB)',
      memory.slicesPeakRssMiB,
      '< 150 MiB',
      memory.slicesPeakRssMiB < 150,
    );
  }
  const { smallWrites, firstSearch } = results.companions ?? {};
  for (const figures of Array.isArray(smallWrites) ? smallWrites : [])
    for (const mode of ['create', 'replace'])
      target(
        `${figures.store}: 1 KB write (${mode}) vs raw insert`,
        figures[mode].ratioMedian,
        '<= 3x',
        figures[mode].ratioMedian <= 3,
      );
  for (const figure of Array.isArray(firstSearch) ? firstSearch : [])
    target(
      `${figure.store}: worst event-loop delay during a first search of ${figure.megabytes} MB, ms`,
      figure.worstDelayMs,
      '<= 50 ms',
      figure.worstDelayMs <= 50,
    );
  results.targets = targets;
  console.log('');
  printTable(
    ['target', 'measured', 'target', 'result'],
    targets.map((row) => [row.name, row.value, row.target, row.pass ? 'pass' : 'FAIL']),
  );
}

function ratioText(summary) {
  return summary.ratioMedian === undefined
    ? 'n/a'
    : `${summary.ratioMedian}x (${summary.ratioMin}–${summary.ratioMax})`;
}

/** The range-read, memory and companion tables (not with --only grep). */
function reportReadsAndMemory(results, header) {
  const stores = results.stores;
  console.log('');
  const readRows = [];
  for (const [index, read] of stores[0].reads.entries()) {
    readRows.push([
      `${read.entry} warm: median / p95 ms`,
      ...stores.map((store) => `${store.reads[index].medianMs} / ${store.reads[index].p95Ms}`),
    ]);
    readRows.push([
      `${read.entry} cold: median / p95 ms`,
      ...stores.map((store) => {
        const row = store.coldReads.rows?.[index];
        return row ? `${row.medianMs} / ${row.p95Ms}` : 'n/a';
      }),
    ]);
  }
  printTable(header('2,000-character range reads'), readRows);
  for (const store of stores)
    if (store.coldReads.skipped) console.log(`  ${store.store}: no cold reads (${store.coldReads.skipped})`);
  console.log('');
  const memory = stores[0].memory;
  printTable(
    ['memory (child process, big entry, SQLite)', 'MiB'],
    [
      ['RSS at start', memory.baselineRssMiB],
      ['peak RSS over slice reads', memory.slicesPeakRssMiB],
      ['peak RSS including a full streamed pass', memory.peakRssMiB],
    ],
  );
}

/** The companions' tables, or why they were skipped (`--no-companions`, `--only grep`). */
function reportCompanions({ smallWrites, firstSearch, skipped }) {
  if (skipped) {
    console.log(`\nsmall writes and first search: skipped (${skipped})`);
    return;
  }
  for (const figures of smallWrites) {
    console.log('');
    printSmallWrites(figures);
  }
  console.log('');
  printFirstSearch(firstSearch);
}

/** Targets of one store's range reads and offload. */
function readAndOffloadTargets(store, target) {
  const byEntry = Object.fromEntries(store.reads.map((read) => [read.name, read]));
  target(
    `${store.store}: read 2,000 chars of 100 MiB, median ms`,
    byEntry['log-100m'].medianMs,
    '<= 1 ms',
    byEntry['log-100m'].medianMs <= 1,
  );
  const scale = byEntry['log-big'].medianMs / byEntry['log-1m'].medianMs;
  target(`${store.store}: read median big / 1 MiB`, round(scale, 2), '<= 2x', scale <= 2);
  target(
    `${store.store}: offload vs writeFile+fsync`,
    store.offload.ratioMedian,
    '>= 0.5x',
    store.offload.ratioMedian >= 0.5,
  );
}

function labelOf(url) {
  if (url === 'fs') return 'fs';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'PostgreSQL';
  throw new Error(`--store takes fs or a postgres:// URL (SQLite always runs), got ${url}`);
}

function environment() {
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    loadavg: loadavg().map((value) => round(value, 2)),
  };
}

async function* toAsync(iterable) {
  for (const piece of iterable) yield piece;
}
