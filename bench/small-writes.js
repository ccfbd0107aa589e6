/**
 * Small-write benchmark: `npm run bench:small-writes` (builds dist/ first), or `measureSmallWrites()` from another
 * bench script (bench:store calls it for its small-write figures).
 *
 * A 1 KB text written through the service (`createScratchpad` over the SQLite driver opened by path), next to a
 * raw better-sqlite3 insert of the same bytes at the same durability (WAL, `synchronous = NORMAL`, one
 * transaction per insert, a text primary key). Paired and alternated: each round runs a batch of raw inserts and a
 * batch of service writes (the order flips every round); the figure is the per-round ratio of mean latencies
 * (median and range over rounds). Also: bytes the process wrote per write (`wchar` of /proc/self/io: the WAL
 * pages, the checkpoints), for new entries (create) and for replacing one entry again and again.
 * Options: --rounds N (default 12), --batch N (default 1000), --json PATH (default bench/results/small-writes.json).
 *
 * A batch is 1,000 writes so that each side's periodic cost falls into every round in proportion: the raw insert
 * checkpoints its WAL (two fsyncs) about every 350 inserts, inside the insert that crosses 1,000 pages; a batch of
 * 100 raw inserts (~1.5 ms) holds one such checkpoint or none, which made per-round ratios swing by 10× on a busy
 * machine (decision 006).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { median, printTable, round } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Bytes this process has written with write-like system calls so far (Linux), or NaN. */
function writtenBytes() {
  try {
    const match = /^wchar:\s*(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** 1 KB of log-like ASCII text, different for every `index`. */
function kilobyte(index) {
  let text = `entry ${index}: `;
  while (text.length < 1000)
    text += `worker-${index % 13} handled request ${text.length * 7919 + index} ok; `;
  return text.slice(0, 1000);
}

/**
 * Runs the paired measurement and returns its figures. `options`: rounds, batch, log (a function for progress).
 */
export async function measureSmallWrites(options = {}) {
  const rounds = options.rounds ?? 12;
  const batch = options.batch ?? 1000;
  const log = options.log ?? (() => {});
  const { createScratchpad } = await import('../dist/index.js');
  const { createSqliteDriver } = await import('../dist/stores/sqlite/index.js');
  const directory = await mkdtemp(join(tmpdir(), 'scratchpad-small-writes-'));
  try {
    const raw = new Database(join(directory, 'raw.db'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.exec('CREATE TABLE kv (name TEXT PRIMARY KEY, data BLOB NOT NULL) STRICT');
    const insert = raw.prepare('INSERT INTO kv (name, data) VALUES (?, ?)');
    const replaceRaw = raw.prepare('INSERT OR REPLACE INTO kv (name, data) VALUES (?, ?)');
    const driver = createSqliteDriver({ path: join(directory, 'store.db') });
    const pad = createScratchpad({ driver });

    let next = 0;
    const runRaw = (mode) => {
      const started = performance.now();
      for (let index = 0; index < batch; index++) {
        const name = `entry-${next++}`;
        if (mode === 'create') insert.run(name, Buffer.from(kilobyte(next)));
        else replaceRaw.run('same', Buffer.from(kilobyte(next)));
      }
      return (performance.now() - started) / batch;
    };
    const runOurs = async (mode) => {
      const started = performance.now();
      for (let index = 0; index < batch; index++) {
        const name = mode === 'create' ? `entry-${next++}` : 'same';
        await pad.write('bench', name, kilobyte(next));
      }
      return (performance.now() - started) / batch;
    };

    const figures = {};
    for (const mode of ['create', 'replace']) {
      // Warm-up: statements prepared, pages cached, the first checkpoint done.
      runRaw(mode);
      await runOurs(mode);
      const rawMs = [];
      const oursMs = [];
      const ratios = [];
      const rawBytes = [];
      const oursBytes = [];
      for (let round = 0; round < rounds; round++) {
        log(`small writes (${mode}) round ${round + 1}/${rounds}`);
        const measureRaw = () => {
          const before = writtenBytes();
          rawMs.push(runRaw(mode));
          rawBytes.push((writtenBytes() - before) / batch);
        };
        const measureOurs = async () => {
          const before = writtenBytes();
          oursMs.push(await runOurs(mode));
          oursBytes.push((writtenBytes() - before) / batch);
        };
        if (round % 2 === 0) {
          measureRaw();
          await measureOurs();
        } else {
          await measureOurs();
          measureRaw();
        }
        ratios.push(oursMs.at(-1) / rawMs.at(-1));
      }
      figures[mode] = {
        rawMs: round(median(rawMs), 4),
        oursMs: round(median(oursMs), 4),
        ratioMedian: round(median(ratios), 2),
        ratioMin: round(Math.min(...ratios), 2),
        ratioMax: round(Math.max(...ratios), 2),
        rawBytesPerWrite: Math.round(median(rawBytes)),
        oursBytesPerWrite: Math.round(median(oursBytes)),
      };
    }
    await driver.close();
    raw.close();
    return { rounds, batch, bytes: 1000, ...figures };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Prints {@link measureSmallWrites}'s figures as a table. */
export function printSmallWrites(figures) {
  printTable(
    ['1 KB write', 'raw insert', 'scratchpad', 'ratio (median, range)', 'bytes written raw / ours', 'target'],
    ['create', 'replace'].map((mode) => {
      const f = figures[mode];
      return [
        mode,
        `${f.rawMs} ms`,
        `${f.oursMs} ms`,
        `${f.ratioMedian}× (${f.ratioMin}–${f.ratioMax})`,
        `${f.rawBytesPerWrite} / ${f.oursBytesPerWrite}`,
        f.ratioMedian <= 2 ? '≤ 2× ✓' : '≤ 2× ✗',
      ];
    }),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!existsSync(join(here, '..', 'dist', 'index.js'))) {
    console.error('dist/ is missing: run `npm run build` first (or `npm run bench:small-writes`).');
    process.exit(1);
  }
  const argumentsGiven = process.argv.slice(2);
  const option = (flag, fallback) => {
    const index = argumentsGiven.indexOf(flag);
    return index === -1 ? fallback : argumentsGiven[index + 1];
  };
  const figures = await measureSmallWrites({
    rounds: Number(option('--rounds', 12)),
    batch: Number(option('--batch', 1000)),
    log: (message) => console.error(`· ${message}`),
  });
  printSmallWrites(figures);
  const output = option('--json', join(here, 'results', 'small-writes.json'));
  await mkdir(dirname(output), { recursive: true });
  await writeFile(
    output,
    `${JSON.stringify({ startedAt: new Date().toISOString(), ...figures }, null, 2)}\n`,
  );
  console.error(`· wrote ${output}`);
}
