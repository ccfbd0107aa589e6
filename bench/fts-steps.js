/**
 * FTS5 indexing-step benchmark: `npm run bench:fts-steps`. Asks whether cutting the SQLite store's indexing steps
 * into smaller pieces of text bounds their CPU time (issue 11: nothing may hold the event loop for 50 ms).
 *
 * Each round indexes `--megabytes` of log text (default 1000) into a fresh FTS5 table with the store's settings
 * (16 KiB pages, WAL, `synchronous = NORMAL`, the store's tokenizer; no checkpoint inside a commit, as the store
 * checkpoints in a worker thread), one transaction per step, in three ways, alternated (the order reverses every
 * round):
 * - `chunk`: one step per 256 KiB chunk, as `SearchIndex.indexChunks` does at the default chunk size;
 * - `pieces`: one step per piece of at most `--piece-kib` KiB (default 32) of a chunk, cut after a newline;
 * - `unmerged`: as `chunk`, with FTS5's merging turned off (`automerge` 0, `crisismerge` at its maximum), to show
 *   how much of a step is the merging of index segments FTS5 does inside a commit (not a way to run a store:
 *   its segments pile up).
 * Per way it reports the CPU time of the median, p99 and worst step (`process.cpuUsage`, which a loaded machine
 * does not inflate; it counts V8's helper threads too), the wall time of the worst step, and the sum of the
 * steps' wall times; then the median and range of the per-round ratios to `chunk`. Reading the chunk text (about
 * 1.5 ms per 256 KiB chunk in the store) is left out: every way reads the same bytes. Options: --megabytes N,
 * --rounds N (default 2), --piece-kib N, --json PATH (default bench/results/fts-steps.json).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteConnection } from '../dist/stores/sqlite/sqlite-binding.js';
import { optionValue } from './lib/command-line.js';
import { logPieces } from './lib/log-text.js';
import { median, printTable, quantile, round } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const CHUNK_BYTES = 256 * 1024;

function option(name, fallback) {
  return optionValue(`--${name}`, fallback);
}

/** The 256 KiB chunks of `megabytes` of log text, as strings (cut at a newline, as pieces are), made lazily. */
function* chunksOf(megabytes) {
  let rest = '';
  for (const piece of logPieces(megabytes * 1_000_000, { seed: 7 })) {
    const cut = cutAtNewlines(rest + piece.toString('utf8'), CHUNK_BYTES);
    rest = cut.pop() ?? '';
    yield* cut;
  }
  if (rest !== '') yield rest;
}

/** The pieces of at most `pieceBytes` of each chunk of `megabytes` of log text. */
function* piecesOf(megabytes, pieceBytes) {
  for (const chunk of chunksOf(megabytes)) yield* cutAtNewlines(chunk, pieceBytes);
}

/** `text` in pieces of at most `limit` UTF-16 units, each ending after a newline where there is one. */
function cutAtNewlines(text, limit) {
  const pieces = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + limit);
    if (end < text.length) {
      const newline = text.lastIndexOf('\n', end - 1);
      if (newline >= at) end = newline + 1;
    }
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/** Indexes the texts `steps` yields (one transaction each) into a fresh FTS5 table; returns per-step CPU and wall times. */
async function indexSteps(steps, merging = true) {
  const directory = await mkdtemp(join(tmpdir(), 'scratchpad-fts-steps-'));
  const database = openSqliteConnection(join(directory, 'index.db'));
  try {
    database.exec('PRAGMA page_size = 16384');
    database.exec('PRAGMA journal_mode = WAL');
    database.exec('PRAGMA synchronous = NORMAL');
    // The store checkpoints in a worker thread, off the loop (`wal-checkpointer.ts`): none in a commit here.
    database.exec('PRAGMA wal_autocheckpoint = 0');
    database.exec(
      "CREATE VIRTUAL TABLE search_index USING fts5 (name, body, tokenize = 'unicode61 remove_diacritics 2')",
    );
    if (!merging) {
      database.exec("INSERT INTO search_index (search_index, rank) VALUES ('automerge', 0)");
      database.exec("INSERT INTO search_index (search_index, rank) VALUES ('crisismerge', 1999)");
    }
    const insert = database.prepare("INSERT INTO search_index (rowid, name, body) VALUES (?, 'log', ?)");
    const begin = database.prepare('BEGIN IMMEDIATE');
    const commit = database.prepare('COMMIT');
    const cpuMs = [];
    const wallMs = [];
    let rowid = 0;
    for (const text of steps) {
      rowid += 1;
      const cpu = process.cpuUsage();
      const wall = performance.now();
      begin.run();
      insert.run(rowid, text);
      commit.run();
      wallMs.push(performance.now() - wall);
      const used = process.cpuUsage(cpu);
      cpuMs.push((used.user + used.system) / 1000);
    }
    return { cpuMs, wallMs, totalMs: wallMs.reduce((sum, ms) => sum + ms, 0) };
  } finally {
    database.close();
    await rm(directory, { recursive: true, force: true });
  }
}

function summary(way, run) {
  return {
    way,
    steps: run.cpuMs.length,
    medianCpuMs: round(median(run.cpuMs), 2),
    p99CpuMs: round(quantile(run.cpuMs, 0.99), 1),
    worstCpuMs: round(Math.max(...run.cpuMs), 1),
    worstWallMs: round(Math.max(...run.wallMs), 1),
    totalMs: round(run.totalMs, 0),
  };
}

const megabytes = Number(option('megabytes', '1000'));
const rounds = Number(option('rounds', '2'));
const pieceBytes = Number(option('piece-kib', '32')) * 1024;
const jsonPath = option('json', join(here, 'results', 'fts-steps.json'));

const ways = {
  chunk: () => chunksOf(megabytes),
  pieces: () => piecesOf(megabytes, pieceBytes),
  unmerged: () => chunksOf(megabytes),
};
const WAYS = ['chunk', 'pieces', 'unmerged'];
const results = [];
for (let round_ = 0; round_ < rounds; round_ += 1) {
  const order = round_ % 2 === 0 ? WAYS : [...WAYS].reverse();
  const pair = {};
  for (const way of order) {
    console.error(`round ${round_ + 1}/${rounds}: ${way}`);
    pair[way] = summary(way, await indexSteps(ways[way](), way !== 'unmerged'));
  }
  results.push(pair);
}

printTable(
  ['round', 'way', 'steps', 'median CPU', 'p99 CPU', 'worst CPU', 'worst wall', 'total'],
  results.flatMap((pair, index) =>
    WAYS.map((way) => {
      const figure = pair[way];
      return [
        index + 1,
        way,
        figure.steps,
        `${figure.medianCpuMs} ms`,
        `${figure.p99CpuMs} ms`,
        `${figure.worstCpuMs} ms`,
        `${figure.worstWallMs} ms`,
        `${figure.totalMs} ms`,
      ];
    }),
  ),
);
const described = (way, field) => {
  const values = results.map((pair) => pair[way][field] / pair.chunk[field]);
  return `${round(median(values), 2)} (${round(Math.min(...values), 2)}–${round(Math.max(...values), 2)})`;
};
console.log('');
printTable(
  ['ratio to chunk (median, range of per-round ratios)', 'pieces', 'unmerged'],
  [
    ['median step CPU', 'medianCpuMs'],
    ['p99 step CPU', 'p99CpuMs'],
    ['worst step CPU', 'worstCpuMs'],
    ['total', 'totalMs'],
  ].map(([label, field]) => [label, described('pieces', field), described('unmerged', field)]),
);
await mkdir(dirname(jsonPath), { recursive: true });
await writeFile(
  jsonPath,
  `${JSON.stringify({ megabytes, pieceKib: pieceBytes / 1024, chunkKib: CHUNK_BYTES / 1024, results }, null, 2)}\n`,
);
