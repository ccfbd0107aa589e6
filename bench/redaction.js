/**
 * Redaction benchmark: `npm run bench:redaction` (builds dist/ first). Issue 28, "redaction in one pass".
 *
 * About 50 MB each of log, JSON and CSV text (deterministic; one secret of the redactor corpus every ~256 KB, with
 * the corpus look-alikes mixed in as often) redacted by the package's redactor (`createRedactor().scan`: one
 * witness pass per window, RE2 only for the patterns whose witness it saw) and by the per-pattern redactor it
 * replaced (src/testing/per-pattern-redaction.ts: every pattern's RE2 scan over every window), in alternated
 * pairs. The per-pattern redactor runs at about 2 MB/s here, so it is timed on the first --old-mb MB (default 4)
 * of the same text; rates are UTF-8 megabytes (10^6 bytes) per second of wall time, medians of the rounds. Each
 * pair also checks that both give the same text and counts on that prefix. The machine may be shared: the load
 * average is printed and written with the figures.
 * Options: --mb N (default 50), --old-mb N (default 4), --rounds N (default 3), --json PATH (default
 * bench/results/redaction.json).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedactor } from '../dist/core/redaction/redactor.js';
import { CORPUS_LOOKALIKES, CORPUS_SECRETS } from '../dist/core/redaction/secret-corpus.fixture.js';
import { perPatternScan } from '../dist/testing/per-pattern-redaction.js';
import { optionValue, requireBuilt } from './lib/command-line.js';
import { logPieces, random } from './lib/log-text.js';
import { median, printTable, round } from './lib/measure.js';

requireBuilt('bench:redaction');
const here = dirname(fileURLToPath(import.meta.url));
const MB = 1e6;
const size = Number(optionValue('--mb', '50')) * MB;
const oldSize = Number(optionValue('--old-mb', '4')) * MB;
const rounds = Number(optionValue('--rounds', '3'));
const output = optionValue('--json', join(here, 'results', 'redaction.json'));
/** A secret (and a look-alike) after about this many characters of filler. */
const SPACING = 256 * 1024;

/** `size` characters of text from `line(n)`, a corpus secret and a look-alike after every SPACING of it. */
function sprinkled(line) {
  const parts = [];
  let length = 0;
  let sinceSecret = 0;
  let secrets = 0;
  for (let n = 0; length < size; n++) {
    let next = line(n);
    if (sinceSecret >= SPACING) {
      const secret = CORPUS_SECRETS[secrets % CORPUS_SECRETS.length];
      const lookalike = CORPUS_LOOKALIKES[secrets % CORPUS_LOOKALIKES.length];
      next += `${secret.text}\n${lookalike.text}\n`;
      secrets++;
      sinceSecret = 0;
    }
    parts.push(next);
    length += next.length;
    sinceSecret += next.length;
  }
  return { text: parts.join(''), secrets };
}

function logText() {
  const lines = [];
  for (const piece of logPieces(size)) lines.push(...piece.toString('utf8').split('\n'));
  return sprinkled((n) => `${lines[n % lines.length]}\n`);
}

function jsonText() {
  const next = random(7);
  const users = ['alice', 'bob', 'françois', 'zoë', '太郎', 'raj'];
  const records = Array.from({ length: 5000 }, (_, id) =>
    JSON.stringify({
      id,
      user: { name: users[id % users.length], email: `${users[id % users.length]}${id}@example.com` },
      created: `2025-01-15T08:${String(id % 60).padStart(2, '0')}:00.000Z`,
      url: `https://api.example.com/v1/orders/${Math.floor(next() * 1e6)}?page=${id % 9}`,
      status: next() < 0.95 ? 'ok' : 'failed',
      amount: Math.round(next() * 100000) / 100,
      tags: ['retail', id % 2 ? 'eu' : 'us'],
      sha: Math.floor(next() * 2 ** 52)
        .toString(16)
        .padStart(13, '0')
        .repeat(3)
        .slice(0, 40),
      message: `line one of ${id}\nline "two" → done\t✓`,
    }),
  );
  return sprinkled((n) => `${records[n % records.length]},\n`);
}

function csvText() {
  const next = random(11);
  const rows = Array.from(
    { length: 5000 },
    (_, id) =>
      `${id},User ${id},user${id}@example.com,2025-01-15T08:00:00Z,${(next() * 1000).toFixed(2)},EUR,` +
      `"${id % 3 ? 'shipped' : 'pending, backordered'}",${Math.floor(next() * 0xffffffff).toString(16)}\n`,
  );
  return sprinkled((n) => rows[n % rows.length]);
}

function timed(action) {
  const started = performance.now();
  const value = action();
  return { seconds: (performance.now() - started) / 1000, value };
}

const redactor = createRedactor();
const results = [];
for (const [kind, make] of [
  ['log', logText],
  ['json', jsonText],
  ['csv', csvText],
]) {
  const { text, secrets } = make();
  const prefix = text.slice(0, oldSize);
  const bytes = Buffer.byteLength(text);
  const prefixBytes = Buffer.byteLength(prefix);
  const fast = [];
  const old = [];
  let found = 0;
  let same = true;
  for (let pass = 0; pass < rounds; pass++) {
    const runFast = () => {
      const run = timed(() => redactor.scan(text));
      fast.push(bytes / MB / run.seconds);
      found = Object.values(run.value.counts).reduce((sum, count) => sum + count, 0);
    };
    const runOld = () => {
      const run = timed(() => perPatternScan(prefix));
      old.push(prefixBytes / MB / run.seconds);
      const mine = redactor.scan(prefix);
      same &&=
        mine.text === run.value.text && JSON.stringify(mine.counts) === JSON.stringify(run.value.counts);
    };
    if (pass % 2 === 0) {
      runFast();
      runOld();
    } else {
      runOld();
      runFast();
    }
  }
  const row = {
    kind,
    megabytes: round(bytes / MB, 1),
    secretsPlanted: secrets,
    secretsReplaced: found,
    oneWindowPassMBps: round(median(fast), 1),
    perPatternMBps: round(median(old), 2),
    perPatternMegabytes: round(prefixBytes / MB, 1),
    ratio: round(median(fast) / median(old), 1),
    sameOutputOnPrefix: same,
  };
  results.push(row);
  console.error(`${kind}: done`);
}

const load = loadavg().map((value) => round(value, 2));
console.log(
  `Redaction, medians of ${rounds} alternated pairs (MB = 10^6 UTF-8 bytes; per-pattern timed on the first ${oldSize / MB} MB), load ${load.join(' ')}`,
);
printTable(
  ['text', 'MB', 'secrets planted', 'replaced', 'one pass MB/s', 'per-pattern MB/s', 'ratio', 'same output'],
  results.map((row) => [
    row.kind,
    row.megabytes,
    row.secretsPlanted,
    row.secretsReplaced,
    row.oneWindowPassMBps,
    row.perPatternMBps,
    `${row.ratio}×`,
    row.sameOutputOnPrefix ? 'yes' : 'NO',
  ]),
);
await mkdir(dirname(output), { recursive: true });
await writeFile(
  output,
  `${JSON.stringify({ bench: 'redaction', date: new Date().toISOString(), load, rounds, results }, null, 2)}\n`,
);
console.log(`Wrote ${output}`);
