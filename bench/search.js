/**
 * Search benchmark: `npm run bench:search [-- --mb 100 --rounds 15]` (builds dist/ first).
 *
 * 100 MB of log text (bench/lib/log-text.js) with one line holding a word nowhere else (`zanzibarquokka`), written
 * to a SQLite store and searched through the service, against the anchor: a plain SQLite FTS5 table over the same
 * text (rows of about 4 KiB of whole lines, `unicode61 remove_diacritics 2`, as context-mode indexes its chunks),
 * queried for the ten best rows with `snippet()`. Time to searchable: our write plus the indexing a first search
 * waits for, against inserting every row into FTS5 in one transaction. Then a rare word, a common one and two words,
 * each query alternated with the anchor's for `--rounds` rounds (the order flips each round); medians, the ratio
 * ours / anchor, and the target for the rare word (within 2× the anchor). Writes bench/results/search.json.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import { optionValue, requireBuilt } from './lib/command-line.js';
import { logPieces } from './lib/log-text.js';
import { median, printTable, round } from './lib/measure.js';

requireBuilt('bench:search');
const here = dirname(fileURLToPath(import.meta.url));
const { createScratchpad } = await import('../dist/index.js');
const { createSqliteDriver } = await import('../dist/stores/sqlite/index.js');
const { openSqliteConnection } = await import('../dist/stores/sqlite/sqlite-binding.js');

const MB = Number(optionValue('--mb', 100));
const ROUNDS = Number(optionValue('--rounds', 15));
const NEEDLE = 'zanzibarquokka';
const NEEDLE_LINE = `2025-01-15T12:00:00.000Z WARN the rare needle ${NEEDLE} lives on this line only\n`;
const QUERIES = [
  { label: 'rare word', query: NEEDLE, target: 2 },
  { label: 'common word', query: 'ERROR' },
  { label: 'two words', query: 'timeout declined' },
];
const ROW_BYTES = 4096;

/** The text, in pieces, with the needle's line after the first fifth. */
function* text() {
  let written = 0;
  let placed = false;
  for (const piece of logPieces(MB * 1_000_000, { seed: 3 })) {
    written += piece.byteLength;
    yield piece;
    if (!placed && written >= (MB * 1_000_000) / 5 && piece[piece.byteLength - 1] === 10) {
      placed = true;
      yield NEEDLE_LINE;
    }
  }
  if (!placed) yield NEEDLE_LINE;
}

/** Rows of whole lines of about ROW_BYTES each. */
function* rows() {
  const decoder = new StringDecoder('utf8');
  let row = '';
  for (const bytes of text()) {
    const piece = typeof bytes === 'string' ? bytes : decoder.write(bytes);
    let from = 0;
    for (;;) {
      const newline = piece.indexOf('\n', from);
      if (newline === -1) {
        row += piece.slice(from);
        break;
      }
      row += piece.slice(from, newline + 1);
      from = newline + 1;
      if (row.length >= ROW_BYTES) {
        yield row;
        row = '';
      }
    }
  }
  if (row) yield row;
}

const directory = mkdtempSync(join(tmpdir(), 'scratchpad-bench-search-'));
try {
  console.error(
    `· ${MB} MB of log text; load average ${round(loadavg()[0], 2)} on ${availableParallelism()} cores`,
  );
  const pad = createScratchpad({ driver: createSqliteDriver({ path: join(directory, 'store.db') }) });
  let started = performance.now();
  await pad.write('bench', 'log', text());
  const writeMs = performance.now() - started;
  let first;
  do first = await pad.search('bench', NEEDLE);
  while (first.indexing);
  const oursSearchableMs = performance.now() - started;
  if (first.hits.length !== 1) throw new Error(`the store found ${first.hits.length} entries for the needle`);

  const anchor = openSqliteConnection(join(directory, 'fts5.db'));
  anchor.exec("CREATE VIRTUAL TABLE lines USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')");
  started = performance.now();
  const insert = anchor.prepare('INSERT INTO lines (body) VALUES (?)');
  anchor.exec('BEGIN');
  for (const row of rows()) insert.run(row);
  anchor.exec('COMMIT');
  const anchorSearchableMs = performance.now() - started;
  const select = anchor.prepare(
    "SELECT rowid, snippet(lines, 0, '[', ']', '…', 24) AS snippet FROM lines WHERE lines MATCH ? ORDER BY rank LIMIT 10",
  );
  const anchorQuery = (query) =>
    query
      .toLowerCase()
      .match(/[\p{L}\p{N}_]+/gu)
      .map((word) => `"${word}"`)
      .join(' OR ');

  const figures = [];
  for (const { label, query, target } of QUERIES) {
    const ours = [];
    const theirs = [];
    const fts = anchorQuery(query);
    const runOurs = async () => {
      const at = performance.now();
      const found = await pad.search('bench', query, { limit: 10 });
      ours.push(performance.now() - at);
      if (found.hits.length === 0) throw new Error(`no hit for ${query}`);
    };
    const runTheirs = () => {
      const at = performance.now();
      const found = select.all(fts);
      theirs.push(performance.now() - at);
      if (found.length === 0) throw new Error(`the anchor found nothing for ${query}`);
    };
    await runOurs();
    runTheirs();
    ours.length = 0;
    theirs.length = 0;
    for (let turn = 0; turn < ROUNDS; turn++) {
      if (turn % 2 === 0) {
        await runOurs();
        runTheirs();
      } else {
        runTheirs();
        await runOurs();
      }
    }
    const ratio = median(ours) / median(theirs);
    figures.push({
      label,
      query,
      oursMs: round(median(ours), 2),
      anchorMs: round(median(theirs), 2),
      ratio: round(ratio, 2),
      ...(target === undefined ? {} : { target, pass: ratio <= target }),
    });
  }
  anchor.close();

  printTable(
    ['', 'scratchpad (SQLite store)', 'FTS5 table', 'ours / anchor', 'target'],
    [
      [
        `time to searchable, ${MB} MB (write + index / insert)`,
        `${round(oursSearchableMs / 1000, 2)} s (write ${round(writeMs / 1000, 2)} s)`,
        `${round(anchorSearchableMs / 1000, 2)} s`,
        `${round(oursSearchableMs / anchorSearchableMs, 2)}×`,
        '',
      ],
      ...figures.map((figure) => [
        `${figure.label} "${figure.query}", median ms of ${ROUNDS}`,
        figure.oursMs,
        figure.anchorMs,
        `${figure.ratio}×`,
        figure.target === undefined ? '' : `<= ${figure.target}× ${figure.pass ? 'pass' : 'FAIL'}`,
      ]),
    ],
  );
  const results = {
    startedAt: new Date().toISOString(),
    megabytes: MB,
    rounds: ROUNDS,
    loadAverage: round(loadavg()[0], 2),
    cores: availableParallelism(),
    timeToSearchable: {
      oursMs: round(oursSearchableMs, 0),
      oursWriteMs: round(writeMs, 0),
      anchorMs: round(anchorSearchableMs, 0),
    },
    queries: figures,
  };
  await mkdir(join(here, 'results'), { recursive: true });
  await writeFile(join(here, 'results', 'search.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('\nwrote bench/results/search.json');
  await pad.close();
} finally {
  rmSync(directory, { recursive: true, force: true });
}
