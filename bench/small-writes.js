/**
 * Small-write benchmark: `npm run bench:small-writes` (builds dist/ first), or `measureSmallWrites()` from another
 * bench script (bench:store calls it for its small-write figures).
 *
 * A 1 KB text written through the service (`createScratchpad` over the SQLite driver opened by path), next to a
 * raw SQLite insert (the binding the store uses: node:sqlite or @photostructure/sqlite) of the same bytes at the same durability (WAL, `synchronous = NORMAL`, one
 * transaction per insert, a text primary key). Paired and alternated: each round runs a batch of raw inserts and a
 * batch of service writes (the order flips every round); the figure is the per-round ratio of mean latencies
 * (median and range over rounds; target ≤ 3×, issue 28). Also: bytes the process wrote per write, beside the time
 * (`wchar` of /proc/self/io: write calls, the WAL pages and checkpoints; and `write_bytes`: what it sent towards
 * the disk), for new entries (create) and for replacing one entry again and again; and on SQLite the
 * ratio of main-thread CPU time per write (/proc/thread-self/schedstat), which a shared machine's load distorts
 * far less than wall-clock time: under load both sides wait for a core alike and the wall-clock ratio shrinks
 * (decision 006).
 * With `--store postgres://…` (or `measureSmallWrites({ store })`) the same on PostgreSQL: the service over the
 * PostgreSQL driver (a schema of its own) next to a raw `pg` insert of the same bytes into a `bytea` table with a
 * text primary key, autocommit, at the server's durability (`synchronous_commit` as configured, `on` by default).
 * Options: --rounds N (default 12), --batch N (default 1000; 200 on PostgreSQL, where a durable write is a few
 * milliseconds), --store URL, --json PATH (default bench/results/small-writes.json).
 *
 * A batch is 1,000 writes so that each side's periodic cost falls into every round in proportion: the raw insert
 * checkpoints its WAL (two fsyncs) about every 350 inserts, inside the insert that crosses 1,000 pages; a batch of
 * 100 raw inserts (~1.5 ms) holds one such checkpoint or none, which made per-round ratios swing by 10× on a busy
 * machine (decision 006).
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteConnection } from '../dist/stores/sqlite/sqlite-binding.js';
import { optionValue as option, requireBuilt } from './lib/command-line.js';
import { median, printTable, round } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Bytes this process has written so far (Linux), or NaN: `wchar` (write-like system calls) and `write_bytes`
 * (what it caused to be sent to storage: dirtied page-cache pages, counted in whole pages).
 */
function writtenBytes() {
  try {
    const io = readFileSync('/proc/self/io', 'utf8');
    const field = (name) => {
      const match = new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(io);
      return match ? Number(match[1]) : Number.NaN;
    };
    return { calls: field('wchar'), disk: field('write_bytes') };
  } catch {
    return { calls: Number.NaN, disk: Number.NaN };
  }
}

/** Nanoseconds the calling thread has run on a CPU so far (Linux), or NaN. */
function threadCpuNs() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
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
 * The two sides of the comparison on SQLite: raw statements on the store's own SQLite binding (synchronous) and the service.
 */
async function sqliteSides(directory) {
  const { createSqliteDriver } = await import('../dist/stores/sqlite/index.js');
  const raw = openSqliteConnection(join(directory, 'raw.db'));
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = NORMAL');
  raw.exec('CREATE TABLE kv (name TEXT PRIMARY KEY, data BLOB NOT NULL) STRICT');
  const insert = raw.prepare('INSERT INTO kv (name, data) VALUES (?, ?)');
  const replace = raw.prepare('INSERT OR REPLACE INTO kv (name, data) VALUES (?, ?)');
  return {
    label: 'SQLite',
    rawSync: true,
    create: (name, data) => insert.run(name, data),
    replace: (name, data) => replace.run(name, data),
    driver: createSqliteDriver({ path: join(directory, 'store.db') }),
    close: async () => raw.close(),
  };
}

/** The two sides on PostgreSQL: a raw `pg` client on a table of its own, and the service (schemas dropped at the end). */
async function postgresSides(url) {
  const { createPostgresDriver } = await import('../dist/stores/postgres/index.js');
  const pg = (await import('pg')).default;
  const rawSchema = `scratchpad_small_raw_${process.pid}`;
  const storeSchema = `scratchpad_small_store_${process.pid}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA ${rawSchema}`);
  await client.query(`CREATE TABLE ${rawSchema}.kv (name text PRIMARY KEY, data bytea NOT NULL)`);
  const insert = { name: 'kv-insert', text: `INSERT INTO ${rawSchema}.kv (name, data) VALUES ($1, $2)` };
  const replace = {
    name: 'kv-replace',
    text: `INSERT INTO ${rawSchema}.kv (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data`,
  };
  return {
    label: 'PostgreSQL',
    rawSync: false,
    create: (name, data) => client.query({ ...insert, values: [name, data] }),
    replace: (name, data) => client.query({ ...replace, values: [name, data] }),
    driver: await createPostgresDriver({ connectionString: url, schema: storeSchema }),
    close: async () => {
      await client.query(`DROP SCHEMA IF EXISTS ${rawSchema} CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS ${storeSchema} CASCADE`);
      await client.end();
    },
  };
}

/**
 * Runs the paired measurement and returns its figures. `options`: rounds, batch, store (a postgres:// URL; SQLite
 * when absent), log (a function for progress).
 */
export async function measureSmallWrites(options = {}) {
  const postgres = options.store !== undefined;
  const rounds = options.rounds ?? 12;
  const batch = options.batch ?? (postgres ? 200 : 1000);
  const log = options.log ?? (() => {});
  const { createScratchpad } = await import('../dist/index.js');
  const directory = await mkdtemp(join(tmpdir(), 'scratchpad-small-writes-'));
  let sides;
  try {
    sides = postgres ? await postgresSides(options.store) : await sqliteSides(directory);
    const pad = createScratchpad({ driver: sides.driver });

    let next = 0;
    const runRawSync = (mode) => {
      const started = performance.now();
      for (let index = 0; index < batch; index++) {
        const name = `entry-${next++}`;
        if (mode === 'create') sides.create(name, Buffer.from(kilobyte(next)));
        else sides.replace('same', Buffer.from(kilobyte(next)));
      }
      return (performance.now() - started) / batch;
    };
    const runRawAsync = async (mode) => {
      const started = performance.now();
      for (let index = 0; index < batch; index++) {
        const name = `entry-${next++}`;
        if (mode === 'create') await sides.create(name, Buffer.from(kilobyte(next)));
        else await sides.replace('same', Buffer.from(kilobyte(next)));
      }
      return (performance.now() - started) / batch;
    };
    const runRaw = sides.rawSync ? runRawSync : runRawAsync;
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
      await runRaw(mode);
      await runOurs(mode);
      const rawMs = [];
      const oursMs = [];
      const ratios = [];
      const cpuRatios = [];
      const rawBytes = [];
      const oursBytes = [];
      const rawDiskBytes = [];
      const oursDiskBytes = [];
      for (let round = 0; round < rounds; round++) {
        log(`small writes (${mode}) round ${round + 1}/${rounds}`);
        let rawCpu = 0;
        let oursCpu = 0;
        const measureRaw = async () => {
          const before = writtenBytes();
          const cpu = threadCpuNs();
          rawMs.push(await runRaw(mode));
          rawCpu = threadCpuNs() - cpu;
          const after = writtenBytes();
          rawBytes.push((after.calls - before.calls) / batch);
          rawDiskBytes.push((after.disk - before.disk) / batch);
        };
        const measureOurs = async () => {
          const before = writtenBytes();
          const cpu = threadCpuNs();
          oursMs.push(await runOurs(mode));
          oursCpu = threadCpuNs() - cpu;
          const after = writtenBytes();
          oursBytes.push((after.calls - before.calls) / batch);
          oursDiskBytes.push((after.disk - before.disk) / batch);
        };
        if (round % 2 === 0) {
          await measureRaw();
          await measureOurs();
        } else {
          await measureOurs();
          await measureRaw();
        }
        ratios.push(oursMs.at(-1) / rawMs.at(-1));
        cpuRatios.push(oursCpu / rawCpu);
      }
      // On PostgreSQL the server does the work: this process's CPU time says little about either side.
      const cpu = !postgres && cpuRatios.every(Number.isFinite);
      figures[mode] = {
        rawMs: round(median(rawMs), 4),
        oursMs: round(median(oursMs), 4),
        ratioMedian: round(median(ratios), 2),
        ratioMin: round(Math.min(...ratios), 2),
        ratioMax: round(Math.max(...ratios), 2),
        cpuRatioMedian: cpu ? round(median(cpuRatios), 2) : 'n/a',
        cpuRatioMin: cpu ? round(Math.min(...cpuRatios), 2) : 'n/a',
        cpuRatioMax: cpu ? round(Math.max(...cpuRatios), 2) : 'n/a',
        // On PostgreSQL the server writes the WAL: this process's own writes are only what it sends.
        rawBytesPerWrite: postgres ? 'server' : Math.round(median(rawBytes)),
        oursBytesPerWrite: postgres ? 'server' : Math.round(median(oursBytes)),
        rawDiskBytesPerWrite: postgres ? 'server' : Math.round(median(rawDiskBytes)),
        oursDiskBytesPerWrite: postgres ? 'server' : Math.round(median(oursDiskBytes)),
      };
    }
    await pad.close();
    return { store: sides.label, rounds, batch, bytes: 1000, ...figures };
  } finally {
    await sides?.close();
    await rm(directory, { recursive: true, force: true });
  }
}

/** Prints {@link measureSmallWrites}'s figures as a table. */
export function printSmallWrites(figures) {
  printTable(
    [
      `1 KB write (${figures.store ?? 'SQLite'})`,
      'raw insert',
      'scratchpad',
      'ratio (median, range)',
      'main-thread CPU ratio',
      'bytes written per write raw / ours (write calls; to disk)',
      'target',
    ],
    ['create', 'replace'].map((mode) => {
      const f = figures[mode];
      return [
        mode,
        `${f.rawMs} ms`,
        `${f.oursMs} ms`,
        `${f.ratioMedian}× (${f.ratioMin}–${f.ratioMax})`,
        f.cpuRatioMedian === 'n/a' || f.cpuRatioMedian === undefined
          ? 'n/a'
          : `${f.cpuRatioMedian}× (${f.cpuRatioMin}–${f.cpuRatioMax})`,
        `${f.rawBytesPerWrite} / ${f.oursBytesPerWrite}; ${f.rawDiskBytesPerWrite} / ${f.oursDiskBytesPerWrite}`,
        f.ratioMedian <= 3 ? '≤ 3× ✓' : '≤ 3× ✗',
      ];
    }),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  requireBuilt('bench:small-writes');
  const store = option('--store', undefined);
  const figures = await measureSmallWrites({
    rounds: Number(option('--rounds', 12)),
    batch: option('--batch', undefined) === undefined ? undefined : Number(option('--batch')),
    store,
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
