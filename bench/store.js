/**
 * Store benchmark: `npm run bench:store` (builds dist/ first, then `node --expose-gc bench/store.js`).
 *
 * Through the service (`createScratchpad` over the SQLite driver opened by path, default 256 KiB chunks and default
 * layout: the first MiB of an entry in the database, the rest in a side file under `store.db.blobs/`), in one run:
 *   1. offload throughput of a 100 MiB entry, next to fs.writeFile + fsync of the same bytes, and next to the same
 *      write into a store that keeps everything inside the database (`inlineBytes: Infinity`); plus the layout
 *      the entry got (chunks inline and in side files);
 *   2. grep throughput on that entry (a literal and a regex), next to `rg -c` on the same bytes in a file;
 *   3. median and p95 latency of a 2,000-character range read at random offsets, for 1 MiB, 100 MiB and 1 GiB
 *      entries (the 1 GiB entry is written by streaming, never as one string);
 *   4. peak RSS while reading slices of the 1 GiB entry, in a fresh child process.
 * Prints a table with the targets and writes bench/results/store.json. Everything lives in a temporary
 * directory that is deleted at the end. Options: --reads N (default 1000), --keep (keep the directory).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { logBuffer, logPieces, random } from './lib/log-text.js';
import { MIB, median, printTable, quantile, round, time } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const distIndex = join(here, '..', 'dist', 'index.js');
if (!existsSync(distIndex)) {
  console.error('dist/ is missing: run `npm run build` first (or `npm run bench:store`, which builds).');
  process.exit(1);
}
const { createScratchpad } = await import('../dist/index.js');
const { createSqliteDriver } = await import('../dist/stores/sqlite/index.js');

const argumentsGiven = process.argv.slice(2);
const option = (flag, fallback) => {
  const index = argumentsGiven.indexOf(flag);
  return index === -1 ? fallback : Number(argumentsGiven[index + 1]);
};
const READS = option('--reads', 1000);
const KEEP = argumentsGiven.includes('--keep');
const RUNS = 3;
const SESSION = 'bench';
const RIPGREP = ['/usr/bin/rg', '/usr/local/bin/rg'].find((path) => existsSync(path));

const directory = await mkdtemp(join(tmpdir(), 'scratchpad-bench-'));
const cleanup = async () => {
  if (!KEEP) await rm(directory, { recursive: true, force: true });
};
process.once('SIGINT', () => {
  cleanup().finally(() => process.exit(130));
});

const results = { startedAt: new Date().toISOString(), environment: environment() };
const log = (message) => console.error(`· ${message}`);

try {
  const databasePath = join(directory, 'store.db');
  const driver = createSqliteDriver({ path: databasePath });
  const pad = createScratchpad({ driver });
  // A second connection to the same file, for checkpoints and for looking at the layout.
  const database = new Database(databasePath);
  results.environment.sqlite = database.prepare('SELECT sqlite_version() AS version').get().version;
  const inlinePath = join(directory, 'inline.db');
  const inlineDriver = createSqliteDriver({ path: inlinePath, inlineBytes: Number.POSITIVE_INFINITY });
  const inlinePad = createScratchpad({ driver: inlineDriver });
  const inlineDatabase = new Database(inlinePath);

  // 1. Offload throughput: the same 100 MiB through Scratchpad.write and through fs.writeFile + fsync.
  log('generating 100 MiB of log text');
  let buffer = logBuffer(100 * MIB, { seed: 7 });
  const plainPath = join(directory, 'plain.log');
  const plainMs = [];
  const writeMs = [];
  const checkpointMs = [];
  const inlineWriteMs = [];
  const inlineCheckpointMs = [];
  for (let run = 0; run < RUNS; run++) {
    log(`offload run ${run + 1}/${RUNS}`);
    plainMs.push(
      (
        await time(async () => {
          const handle = await open(plainPath, 'w');
          await handle.writeFile(buffer);
          await handle.sync();
          await handle.close();
        })
      ).ms,
    );
    globalThis.gc?.();
    writeMs.push((await time(() => pad.write(SESSION, 'log-100m', buffer))).ms);
    checkpointMs.push((await time(() => database.pragma('wal_checkpoint(TRUNCATE)'))).ms);
    globalThis.gc?.();
    inlineWriteMs.push((await time(() => inlinePad.write(SESSION, 'log-100m', buffer))).ms);
    inlineCheckpointMs.push((await time(() => inlineDatabase.pragma('wal_checkpoint(TRUNCATE)'))).ms);
  }
  await inlinePad.close();
  inlineDatabase.close();
  const plainMiBps = buffer.byteLength / MIB / (median(plainMs) / 1000);
  const writeMiBps = buffer.byteLength / MIB / (median(writeMs) / 1000);
  const durableMiBps = buffer.byteLength / MIB / ((median(writeMs) + median(checkpointMs)) / 1000);
  const inlineMiBps = buffer.byteLength / MIB / (median(inlineWriteMs) / 1000);
  const inlineDurableMiBps =
    buffer.byteLength / MIB / ((median(inlineWriteMs) + median(inlineCheckpointMs)) / 1000);
  results.offload = {
    bytes: buffer.byteLength,
    runs: RUNS,
    scratchpadWriteMs: writeMs.map((ms) => round(ms, 1)),
    plainWriteFsyncMs: plainMs.map((ms) => round(ms, 1)),
    checkpointMs: checkpointMs.map((ms) => round(ms, 1)),
    scratchpadMiBps: round(writeMiBps, 1),
    scratchpadWithCheckpointMiBps: round(durableMiBps, 1),
    plainMiBps: round(plainMiBps, 1),
    ratio: round(writeMiBps / plainMiBps, 3),
    inlineOnly: {
      scratchpadWriteMs: inlineWriteMs.map((ms) => round(ms, 1)),
      checkpointMs: inlineCheckpointMs.map((ms) => round(ms, 1)),
      scratchpadMiBps: round(inlineMiBps, 1),
      scratchpadWithCheckpointMiBps: round(inlineDurableMiBps, 1),
      ratio: round(inlineMiBps / plainMiBps, 3),
    },
  };
  results.layout = layoutOf(database, databasePath, SESSION, 'log-100m');

  // 2. Grep throughput on the same bytes: Scratchpad.grep vs rg -c.
  results.grep = [];
  for (const pattern of ['ERROR', 'status=5\\d\\d']) {
    log(`grep ${pattern}`);
    const oursMs = [];
    let ours;
    for (let run = 0; run < RUNS; run++) {
      const measured = await time(() =>
        pad.grep(SESSION, 'log-100m', { pattern, maxMatches: 10, timeoutMs: 600_000 }),
      );
      oursMs.push(measured.ms);
      ours = measured.value.total;
    }
    const row = {
      pattern,
      bytes: buffer.byteLength,
      matchingLines: ours,
      scratchpadMs: oursMs.map((ms) => round(ms, 1)),
    };
    row.scratchpadMiBps = round(buffer.byteLength / MIB / (median(oursMs) / 1000), 1);
    if (RIPGREP) {
      const ripgrepMs = [];
      let theirs;
      for (let run = 0; run < RUNS; run++) {
        const measured = await time(() =>
          spawnSync(RIPGREP, ['-c', pattern, plainPath], { encoding: 'utf8' }),
        );
        if (measured.value.status !== 0) throw new Error(`rg failed: ${measured.value.stderr}`);
        ripgrepMs.push(measured.ms);
        theirs = Number(measured.value.stdout.trim());
      }
      if (theirs !== ours)
        throw new Error(`grep ${pattern}: scratchpad counted ${ours} lines, ripgrep ${theirs}`);
      row.ripgrepMs = ripgrepMs.map((ms) => round(ms, 1));
      row.ripgrepMiBps = round(buffer.byteLength / MIB / (median(ripgrepMs) / 1000), 1);
      row.ratio = round(median(ripgrepMs) / median(oursMs), 3);
    }
    results.grep.push(row);
  }
  if (!RIPGREP)
    console.error('ripgrep not found: install it to compare grep throughput (apt-get install ripgrep).');
  buffer = undefined;
  globalThis.gc?.();

  // 3. Random 2,000-character range reads at three sizes.
  log('writing the 1 MiB entry');
  await pad.write(SESSION, 'log-1m', logBuffer(1 * MIB, { seed: 1 }));
  log('writing the 1 GiB entry (streamed)');
  const big = await time(() => pad.write(SESSION, 'log-1g', toAsync(logPieces(1024 * MIB, { seed: 3 }))));
  results.streamedWrite = {
    bytes: big.value.entry.bytes,
    ms: round(big.ms, 0),
    MiBps: round(big.value.entry.bytes / MIB / (big.ms / 1000), 1),
  };
  results.reads = [];
  for (const [label, name] of [
    ['1 MiB', 'log-1m'],
    ['100 MiB', 'log-100m'],
    ['1 GiB', 'log-1g'],
  ]) {
    log(`${READS} random reads of ${label}`);
    const entry = await pad.get(SESSION, name);
    const next = random(11);
    const rangeRead = async () => {
      const start = Math.floor(next() * (entry.chars - 2000));
      return pad.read(SESSION, name, { type: 'range', start, end: start + 2000 });
    };
    for (let warm = 0; warm < 50; warm++) {
      const read = await rangeRead();
      if ([...read.content].length !== 2000)
        throw new Error(`a read of ${name} returned ${[...read.content].length} characters`);
    }
    const samples = [];
    for (let index = 0; index < READS; index++) samples.push((await time(rangeRead)).ms);
    results.reads.push({
      entry: label,
      bytes: entry.bytes,
      chars: entry.chars,
      chunks: Math.ceil(entry.bytes / (256 * 1024)),
      reads: READS,
      medianMs: round(median(samples), 4),
      p95Ms: round(quantile(samples, 0.95), 4),
    });
  }
  await pad.close();
  database.close();

  // 4. Peak RSS while reading slices of the 1 GiB entry, in a fresh process.
  log('reading slices of the 1 GiB entry in a child process');
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', join(here, 'lib', 'read-memory.js'), databasePath, SESSION, 'log-1g'],
    {
      encoding: 'utf8',
    },
  );
  if (child.status !== 0) throw new Error(`memory child failed: ${child.stderr}`);
  results.memory = JSON.parse(child.stdout.trim().split('\n').pop());

  report(results);
  await mkdir(join(here, 'results'), { recursive: true });
  await writeFile(join(here, 'results', 'store.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote bench/results/store.json${KEEP ? `; kept ${directory}` : ''}`);
} finally {
  await cleanup();
}

function report(results) {
  const byEntry = Object.fromEntries(results.reads.map((read) => [read.entry, read]));
  const targets = [];
  const target = (name, value, text, pass) => targets.push({ name, value, target: text, pass });
  target(
    'read 2,000 chars of 100 MiB, median',
    byEntry['100 MiB'].medianMs,
    '<= 1 ms',
    byEntry['100 MiB'].medianMs <= 1,
  );
  const scale = byEntry['1 GiB'].medianMs / byEntry['1 MiB'].medianMs;
  target('read median 1 GiB / 1 MiB', round(scale, 2), '<= 2x', scale <= 2);
  target('offload vs writeFile+fsync', results.offload.ratio, '>= 0.5x', results.offload.ratio >= 0.5);
  for (const grep of results.grep) {
    if (grep.ratio !== undefined)
      target(`grep ${grep.pattern} vs rg -c`, grep.ratio, '>= 0.25x', grep.ratio >= 0.25);
  }
  target(
    'peak RSS reading slices of the 1 GiB entry (MiB)',
    results.memory.slicesPeakRssMiB,
    '< 150 MiB',
    results.memory.slicesPeakRssMiB < 150,
  );
  results.targets = targets;

  console.log(
    `\nStore benchmark (SQLite ${results.environment.sqlite}, Node ${results.environment.node}, ${results.environment.cpus} CPUs, load ${results.environment.loadavg.join(' ')})\n`,
  );
  printTable(
    ['entry', 'chunks', 'reads', 'median ms', 'p95 ms'],
    results.reads.map((read) => [read.entry, read.chunks, read.reads, read.medianMs, read.p95Ms]),
  );
  console.log('');
  const offload = results.offload;
  printTable(
    ['offload 100 MiB', 'MiB/s'],
    [
      ['Scratchpad.write (SQLite + side file, default layout)', offload.scratchpadMiBps],
      ['Scratchpad.write + wal_checkpoint(TRUNCATE)', offload.scratchpadWithCheckpointMiBps],
      ['Scratchpad.write, everything inline (inlineBytes: Infinity)', offload.inlineOnly.scratchpadMiBps],
      ['  + wal_checkpoint(TRUNCATE)', offload.inlineOnly.scratchpadWithCheckpointMiBps],
      ['fs.writeFile + fsync', offload.plainMiBps],
      ['1 GiB streamed write, incl. generating the text (async iterable)', results.streamedWrite.MiBps],
    ],
  );
  console.log('');
  const layout = results.layout;
  printTable(
    ['layout of the 100 MiB entry', 'chunks', 'MiB'],
    [
      ['inline in store.db', layout.inlineChunks, round(layout.inlineBytes / MIB, 2)],
      [
        `in side files (${layout.entryFiles} file${layout.entryFiles === 1 ? '' : 's'} under store.db.blobs/)`,
        layout.externalChunks,
        round(layout.externalBytes / MIB, 2),
      ],
      ['store.db on disk (after checkpoint)', '', round(layout.databaseFileBytes / MIB, 2)],
      [
        `store.db.blobs/ on disk (${layout.blobFiles} files, incl. replaced versions kept 10 min for readers)`,
        '',
        round(layout.blobDirectoryBytes / MIB, 2),
      ],
    ],
  );
  console.log('');
  printTable(
    ['grep 100 MiB', 'lines', 'Scratchpad MiB/s', 'rg -c MiB/s'],
    results.grep.map((grep) => [
      grep.pattern,
      grep.matchingLines,
      grep.scratchpadMiBps,
      grep.ripgrepMiBps ?? 'n/a',
    ]),
  );
  console.log('');
  const memory = results.memory;
  printTable(
    ['memory (child process, 1 GiB entry)', 'MiB'],
    [
      ['RSS at start', memory.baselineRssMiB],
      ['peak RSS over 1,203 slice reads', memory.slicesPeakRssMiB],
      ['peak RSS including a full streamed pass', memory.peakRssMiB],
    ],
  );
  console.log('');
  printTable(
    ['target', 'measured', 'target', 'result'],
    targets.map((row) => [row.name, row.value, row.target, row.pass ? 'pass' : 'FAIL']),
  );
}

/** Where the chunks of one entry are stored, and what the store occupies on disk. */
function layoutOf(database, databasePath, session, name) {
  const row = database
    .prepare(
      `SELECT count(*) FILTER (WHERE chunks.file IS NULL) AS inlineChunks,
              coalesce(sum(chunks.bytes) FILTER (WHERE chunks.file IS NULL), 0) AS inlineBytes,
              count(chunks.file) AS externalChunks,
              coalesce(sum(chunks.bytes) FILTER (WHERE chunks.file IS NOT NULL), 0) AS externalBytes,
              count(DISTINCT chunks.file) AS entryFiles
       FROM entries JOIN chunks ON chunks.content = entries.content
       WHERE entries.session = ? AND entries.name = ?`,
    )
    .get(session, name);
  const blobDirectory = `${databasePath}.blobs`;
  const files = existsSync(blobDirectory) ? readdirSync(blobDirectory) : [];
  return {
    ...row,
    blobFiles: files.length,
    blobDirectoryBytes: files.reduce((sum, file) => sum + statSync(join(blobDirectory, file)).size, 0),
    databaseFileBytes: statSync(databasePath).size,
  };
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
