/**
 * Child process of `bench/store.js`: reads slices of one big entry in a fresh process and reports the peak RSS,
 * so memory held by earlier benchmark phases cannot pollute the figure.
 *
 *   node --expose-gc bench/lib/read-memory.js DB_PATH SESSION NAME
 *
 * Prints one JSON line: the kernel's peak RSS of this process (`VmHWM` on Linux, which also catches peaks between
 * samples; not `resourceUsage().maxRSS`, which a spawned child inherits from its parent), the peak of the samples
 * taken after every operation, and what was read.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { random } from './log-text.js';
import { MIB, round } from './measure.js';

const [databasePath, session, name] = process.argv.slice(2);
const { createScratchpad } = await import('../../dist/index.js');
const { createSqliteDriver } = await import('../../dist/stores/sqlite/index.js');

const driver = createSqliteDriver({ path: databasePath });
const pad = createScratchpad({ driver });
const next = random(99);
let sampledPeak = process.memoryUsage().rss;
const sample = () => {
  const rss = process.memoryUsage().rss;
  if (rss > sampledPeak) sampledPeak = rss;
};

/** Peak RSS in bytes since this program started: VmHWM (reset by exec), else the sampled peak. */
const peakRss = () => {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Math.max(Number(match[1]) * 1024, sampledPeak);
  } catch {
    // Not Linux: the samples are all we have.
  }
  return sampledPeak;
};

globalThis.gc?.();
const baseline = process.memoryUsage().rss;
const entry = await pad.get(session, name);
const started = performance.now();
let readChars = 0;
for (let index = 0; index < 1000; index++) {
  const start = Math.floor(next() * (entry.chars - 2000));
  readChars += (await pad.read(session, name, { type: 'range', start, end: start + 2000 })).content.length;
  sample();
}
for (let index = 0; index < 200; index++) {
  const first = 1 + Math.floor(next() * (entry.lines - 100));
  readChars += (await pad.read(session, name, { type: 'lines', start: first, end: first + 99 })).content
    .length;
  sample();
}
for (const slice of [
  { type: 'head', count: 30_000 },
  { type: 'tail', count: 30_000 },
  { type: 'offset', offset: Math.floor(entry.chars / 2), limit: 30_000 },
]) {
  readChars += (await pad.read(session, name, slice)).content.length;
  sample();
}
const slicesPeak = peakRss();
const slicesMs = performance.now() - started;

// A full pass over the entry as a stream: memory must stay flat too.
const streamStarted = performance.now();
let streamed = 0;
const { pieces } = await pad.stream(session, name);
for await (const piece of pieces) {
  streamed += piece.byteLength;
  sample();
}
const streamMs = performance.now() - streamStarted;
if (streamed !== entry.bytes) throw new Error(`streamed ${streamed} bytes of ${entry.bytes}`);
await pad.close();

console.log(
  JSON.stringify({
    entryBytes: entry.bytes,
    baselineRssMiB: round(baseline / MIB, 1),
    slicesPeakRssMiB: round(slicesPeak / MIB, 1),
    slicesMs: round(slicesMs, 0),
    sampledPeakRssMiB: round(sampledPeak / MIB, 1),
    peakRssMiB: round(peakRss() / MIB, 1),
    streamedBytes: streamed,
    streamMiBps: round(streamed / MIB / (streamMs / 1000), 0),
    readChars,
  }),
);
