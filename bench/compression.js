/**
 * Compressed chunks: `npm run bench:compression [-- options]` (builds dist/ first, then
 * `node --expose-gc bench/compression.js`).
 *
 * For three kinds of content — logs, JSON and source code — writes the same entry into one SQLite store per
 * codec (`none`, the anchor, then `gzip`, `brotli`, and `zstd` when this Node has it) and reports:
 *   1. space: the store's bytes on disk (database after a WAL checkpoint + side files) against the content's;
 *   2. write time of the entry, in fresh stores, paired and alternated with the uncompressed store;
 *   3. slice-read latency: random 2,000-character range reads, each codec paired with the uncompressed store at
 *      the same position, the order alternating pair by pair; the figure is the median of the per-pair ratios;
 *   4. grep throughput over the whole entry for a pattern that matches a few lines, paired and alternated the
 *      same way (MiB of content per second, and the ratio against the uncompressed store).
 * The content: the preview corpus (`shared/data/previews`: real logs and JSON API replies; `--data DIR`) and
 * TypeScript's compiler (`node_modules/typescript/lib/typescript.js`, real source code), each repeated to `--size-mib`
 * (every chunk is compressed on its own, so repeats farther apart than a chunk, 256 KiB, do not help). Without
 * the corpus, synthetic logs (bench/lib/log-text.js) and package-lock.json stand in (marked in the output).
 * Prints tables and writes bench/results/compression.json. Options:
 *   --size-mib N   size of each entry (default 32)      --reads N   range-read pairs per codec (default 300)
 *   --greps N      grep pairs per codec (default 5)     --data DIR  the preview corpus
 *   --writes N     write pairs per codec (default 3)
 *   --codecs-only  only the codecs on 256 KiB chunks, no store (runs on any Node, e.g. one with zstd whose ABI
 *                  the installed better-sqlite3 was not built for)
 * Before the stores, the codecs alone (`encodeChunkBytes` / `decodeChunkBytes`) on the content's chunks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { optionValue, requireBuilt } from './lib/command-line.js';
import { logBuffer, random } from './lib/log-text.js';
import { MIB, median, printTable, quantile, round, time } from './lib/measure.js';
import { findPreviewCorpus } from './lib/preview-corpus.js';

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, '..');
requireBuilt('bench:compression');
const given = process.argv.slice(2);
const CODECS_ONLY = given.includes('--codecs-only');
const { compressionAvailable, encodeChunkBytes, decodeChunkBytes } = await import(
  '../dist/stores/chunk-codec.js'
);
// Loaded only for the store part: --codecs-only runs on a Node whose ABI better-sqlite3 was not built for.
const { createScratchpad } = CODECS_ONLY ? {} : await import('../dist/index.js');
const { createSqliteDriver } = CODECS_ONLY ? {} : await import('../dist/stores/sqlite/index.js');
const openSqliteConnection = CODECS_ONLY
  ? undefined
  : (await import('../dist/stores/sqlite/sqlite-binding.js')).openSqliteConnection;

const option = (flag, fallback) => optionValue(flag, fallback, given);
const SIZE_MIB = Number(option('--size-mib', 32));
const READS = Number(option('--reads', 300));
const GREPS = Number(option('--greps', 5));
const WRITES = Number(option('--writes', 3));
const SESSION = 'bench';
const CODECS = ['none', 'gzip', 'brotli', 'zstd'].filter((codec) => compressionAvailable(codec));
const log = (message) => console.error(`· ${message}`);

const directory = await mkdtemp(join(tmpdir(), 'scratchpad-bench-compression-'));
const results = {
  startedAt: new Date().toISOString(),
  command: `npm run bench:compression -- --size-mib ${SIZE_MIB} --reads ${READS} --greps ${GREPS} --writes ${WRITES}${CODECS_ONLY ? ' --codecs-only' : ''}`,
  environment: {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    loadavg: loadavg().map((value) => round(value, 2)),
  },
  options: { sizeMiB: SIZE_MIB, reads: READS, greps: GREPS, writes: WRITES, codecs: CODECS },
  contents: [],
};

try {
  for (const content of loadContents()) {
    log(`— ${content.kind} (${content.source}) —`);
    const codecs = await benchCodecs(content);
    results.contents.push(
      CODECS_ONLY
        ? { kind: content.kind, codecs }
        : { ...(await benchContent(content)), chunkCodecs: codecs },
    );
  }
  report(results);
  await mkdir(join(here, 'results'), { recursive: true });
  const file = CODECS_ONLY ? `compression-codecs-${process.version}.json` : 'compression.json';
  await writeFile(join(here, 'results', file), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote bench/results/${file}`);
} finally {
  await rm(directory, { recursive: true, force: true });
}

/** The three contents, each `SIZE_MIB` long, with the grep pattern that finds a few of its lines. */
function loadContents() {
  const corpus = findPreviewCorpus(repository, option('--data', undefined));
  const fromCorpus = (pattern) =>
    corpus
      ? Buffer.concat(
          readdirSync(join(corpus, 'corpus'))
            .filter((name) => pattern.test(name))
            .sort()
            .map((name) => gunzipSync(readFileSync(join(corpus, 'corpus', name)))),
        )
      : undefined;
  const logs = fromCorpus(/\.log\.gz$/);
  const json = fromCorpus(/\.json\.gz$/);
  const code = join(repository, 'node_modules', 'typescript', 'lib', 'typescript.js');
  return [
    {
      kind: 'logs',
      source: logs
        ? 'preview corpus *.log (HDFS, ZooKeeper, OpenSSH, syslog, Apache, CI)'
        : 'synthetic (log-text.js)',
      data: repeatTo(logs ?? logBuffer(4 * MIB, { seed: 5 })),
      pattern: logs ? 'Invalid user (admin|oracle) from' : 'payment declined',
    },
    {
      kind: 'json',
      source: json
        ? 'preview corpus *.json (npm view, USGS GeoJSON, GitHub issues, reports)'
        : 'package-lock.json',
      data: repeatTo(json ?? readFileSync(join(repository, 'package-lock.json'))),
      pattern: json ? '"mag":\\s*6\\.[0-9]' : '"license": "ISC"',
    },
    {
      kind: 'code',
      source: 'node_modules/typescript/lib/typescript.js',
      data: repeatTo(readFileSync(code)),
      pattern: 'function createScanner\\(',
    },
  ];
}

/** `data` repeated (and cut on a line end) to SIZE_MIB. */
function repeatTo(data) {
  const target = SIZE_MIB * MIB;
  const parts = [];
  let size = 0;
  while (size < target) {
    const part = data.subarray(0, Math.min(data.byteLength, target - size));
    parts.push(part);
    size += part.byteLength;
  }
  const joined = Buffer.concat(parts);
  const cut = joined.lastIndexOf(10);
  return cut > 0 ? joined.subarray(0, cut + 1) : joined;
}

async function benchContent(content) {
  const text = content.data.toString('utf8');
  const chars = [...text].length;
  const stores = {};
  for (const codec of CODECS) {
    const path = join(directory, `${content.kind}-${codec}`, 'store.db');
    const driver = createSqliteDriver({ path, compression: codec });
    const pad = createScratchpad({ driver });
    global.gc?.();
    const written = await time(() => pad.write(SESSION, content.kind, content.data));
    stores[codec] = { path, driver, pad, writeMs: written.ms };
    log(`${codec}: wrote ${round(content.data.byteLength / MIB, 1)} MiB in ${round(written.ms, 0)} ms`);
  }
  const anchor = stores.none;
  const out = {
    kind: content.kind,
    source: content.source,
    bytes: content.data.byteLength,
    pattern: content.pattern,
    codecs: {},
  };
  const expectedMatches = (await anchor.pad.grep(SESSION, content.kind, { pattern: content.pattern })).total;
  for (const codec of CODECS) {
    const store = stores[codec];
    const reads = await pairedReads(store.pad, anchor.pad, content.kind, chars, codec);
    const greps = await pairedGreps(store.pad, anchor.pad, content, expectedMatches, codec);
    const writes = codec === 'none' ? undefined : await pairedWrites(content, codec);
    out.codecs[codec] = {
      writeMs: round(store.writeMs, 1),
      writeMiBps: round(content.data.byteLength / MIB / (store.writeMs / 1000), 1),
      ...(writes ? { pairedWrite: writes } : {}),
      rangeRead: reads,
      grep: greps,
    };
  }
  for (const codec of CODECS) {
    const store = stores[codec];
    await store.pad.close();
    out.codecs[codec].diskBytes = diskBytes(store.path);
    out.codecs[codec].diskRatio = round(out.codecs[codec].diskBytes / content.data.byteLength, 4);
    out.codecs[codec].spaceSaved = round(1 - out.codecs[codec].diskRatio, 4);
  }
  return out;
}

/**
 * The codecs alone, as the stores call them (`encodeChunkBytes` / `decodeChunkBytes`, the configured levels) on
 * the content's 256 KiB chunks, on the calling thread: stored fraction and MiB/s each way (median of 3 passes).
 */
async function benchCodecs(content) {
  const CHUNK = 256 * 1024;
  const chunks = [];
  for (let offset = 0; offset + CHUNK <= content.data.byteLength; offset += CHUNK) {
    chunks.push(content.data.subarray(offset, offset + CHUNK));
  }
  const out = {};
  for (const codec of CODECS.filter((name) => name !== 'none')) {
    const encodeMs = [];
    const decodeMs = [];
    let stored = 0;
    for (let pass = 0; pass < 3; pass++) {
      stored = 0;
      const encoded = [];
      const started = performance.now();
      for (const chunk of chunks) encoded.push(await encodeChunkBytes(chunk, codec));
      encodeMs.push(performance.now() - started);
      const decodeStarted = performance.now();
      for (const [index, chunk] of encoded.entries()) {
        stored += chunk.stored.byteLength;
        decodeChunkBytes(chunk.codec, chunk.stored, chunks[index].byteLength, { where: 'bench', seq: index });
      }
      decodeMs.push(performance.now() - decodeStarted);
    }
    const mib = (chunks.length * CHUNK) / MIB;
    out[codec] = {
      chunks: chunks.length,
      storedFraction: round(stored / (chunks.length * CHUNK), 4),
      encodeMiBps: round(mib / (median(encodeMs) / 1000), 1),
      decodeMiBps: round(mib / (median(decodeMs) / 1000), 1),
      decodeMsPerChunk: round(median(decodeMs) / chunks.length, 3),
    };
    log(`${codec}: ${JSON.stringify(out[codec])}`);
  }
  return out;
}

/** Writes of the whole entry into fresh stores, `codec` and uncompressed alternating which goes first. */
async function pairedWrites(content, codec) {
  const ours = [];
  const theirs = [];
  const ratios = [];
  const write = async (compression, pair) => {
    const path = join(directory, `write-${content.kind}-${codec}-${pair}-${compression}`, 'store.db');
    const pad = createScratchpad({ driver: createSqliteDriver({ path, compression }) });
    global.gc?.();
    const { ms } = await time(() => pad.write(SESSION, content.kind, content.data));
    await pad.close();
    await rm(dirname(path), { recursive: true, force: true });
    return ms;
  };
  for (let pair = 0; pair < WRITES; pair++) {
    let a;
    let b;
    if (pair % 2 === 0) {
      a = await write(codec, pair);
      b = await write('none', pair);
    } else {
      b = await write('none', pair);
      a = await write(codec, pair);
    }
    ours.push(a);
    theirs.push(b);
    ratios.push(a / b);
  }
  const mib = content.data.byteLength / MIB;
  log(`${codec}: write median ${round(median(ours), 0)} ms (uncompressed ${round(median(theirs), 0)} ms)`);
  return {
    pairs: WRITES,
    MiBps: round(mib / (median(ours) / 1000), 1),
    uncompressedMiBps: round(mib / (median(theirs) / 1000), 1),
    ratioToUncompressed: round(median(ratios), 3),
  };
}

/** Random 2,000-character range reads: `pad` and the anchor at the same position, alternating which goes first. */
async function pairedReads(pad, anchor, name, chars, codec) {
  const next = random(11);
  const ours = [];
  const theirs = [];
  const ratios = [];
  const read = (target, start) => target.read(SESSION, name, { type: 'range', start, end: start + 2000 });
  for (let index = 0; index < 20; index++) await read(pad, Math.floor(next() * (chars - 2000)));
  for (let pair = 0; pair < READS; pair++) {
    const start = Math.floor(next() * (chars - 2000));
    let a;
    let b;
    if (pair % 2 === 0) {
      a = (await time(() => read(pad, start))).ms;
      b = (await time(() => read(anchor, start))).ms;
    } else {
      b = (await time(() => read(anchor, start))).ms;
      a = (await time(() => read(pad, start))).ms;
    }
    ours.push(a);
    theirs.push(b);
    ratios.push(a / b);
  }
  log(
    `${codec}: range read median ${round(median(ours), 3)} ms (uncompressed ${round(median(theirs), 3)} ms)`,
  );
  return {
    pairs: READS,
    medianMs: round(median(ours), 3),
    p90Ms: round(quantile(ours, 0.9), 3),
    uncompressedMedianMs: round(median(theirs), 3),
    ratioToUncompressed: round(median(ratios), 3),
  };
}

/** Whole-entry greps, paired and alternated with the anchor; both must find the same lines. */
async function pairedGreps(pad, anchor, content, expected, codec) {
  const grep = async (target) => {
    const result = await target.grep(SESSION, content.kind, { pattern: content.pattern });
    if (result.total !== expected)
      throw new Error(`${codec}: grep found ${result.total}, expected ${expected}`);
  };
  const ours = [];
  const theirs = [];
  const ratios = [];
  for (let pair = 0; pair < GREPS; pair++) {
    global.gc?.();
    let a;
    let b;
    if (pair % 2 === 0) {
      a = (await time(() => grep(pad))).ms;
      b = (await time(() => grep(anchor))).ms;
    } else {
      b = (await time(() => grep(anchor))).ms;
      a = (await time(() => grep(pad))).ms;
    }
    ours.push(a);
    theirs.push(b);
    ratios.push(a / b);
  }
  const mib = content.data.byteLength / MIB;
  log(`${codec}: grep median ${round(median(ours), 0)} ms (uncompressed ${round(median(theirs), 0)} ms)`);
  return {
    pairs: GREPS,
    matches: expected,
    medianMs: round(median(ours), 1),
    MiBps: round(mib / (median(ours) / 1000), 1),
    uncompressedMiBps: round(mib / (median(theirs) / 1000), 1),
    ratioToUncompressed: round(median(ratios), 3),
  };
}

/** The store's bytes on disk: the database after folding the WAL back into it, plus its side files. */
function diskBytes(path) {
  const database = openSqliteConnection(path);
  database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  database.close();
  const blobs = `${path}.blobs`;
  const side = existsSync(blobs)
    ? readdirSync(blobs).reduce((sum, name) => sum + statSync(join(blobs, name)).size, 0)
    : 0;
  return statSync(path).size + side;
}

function report(all) {
  console.log(`\nCodecs on 256 KiB chunks (the stores' levels), ${all.environment.node}`);
  printTable(
    ['content', 'codec', 'stored', 'compress', 'decompress', 'per chunk'],
    all.contents.flatMap((content) =>
      Object.entries(content.chunkCodecs ?? content.codecs).map(([codec, figures]) => [
        content.kind,
        codec,
        `${round(figures.storedFraction * 100, 1)}%`,
        `${figures.encodeMiBps} MiB/s`,
        `${figures.decodeMiBps} MiB/s`,
        `${figures.decodeMsPerChunk} ms`,
      ]),
    ),
  );
  if (CODECS_ONLY) return;
  console.log(`\nCompressed chunks — SQLite, ${SIZE_MIB} MiB per entry, ${all.environment.node}`);
  const rows = [];
  for (const content of all.contents) {
    for (const codec of CODECS) {
      const figures = content.codecs[codec];
      rows.push([
        content.kind,
        codec,
        `${round(figures.diskBytes / MIB, 2)} MiB`,
        `${round(figures.spaceSaved * 100, 1)}%`,
        figures.pairedWrite
          ? `${figures.pairedWrite.MiBps} MiB/s (${figures.pairedWrite.ratioToUncompressed}×)`
          : `${figures.writeMiBps} MiB/s`,
        `${figures.rangeRead.medianMs} ms`,
        `${figures.rangeRead.ratioToUncompressed}×`,
        `${figures.grep.MiBps} MiB/s`,
        `${figures.grep.ratioToUncompressed}×`,
      ]);
    }
  }
  printTable(
    [
      'content',
      'codec',
      'on disk',
      'saved',
      'write (time vs none)',
      '2,000-char read (median)',
      'read vs none',
      'grep',
      'grep time vs none',
    ],
    rows,
  );
}
