// npm run bench:ui -- [--mb 1024] [--rounds 5] [--json PATH]
// Time to first paint of an entry in `scratchpad ui`, a 1 GB entry against a 1 KB one, paired and alternated in
// one headless Chromium (/usr/bin/chromium): from navigation to the entry's URL until its first line is on screen.
// Also the largest response body any request of those page loads transferred.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { createScratchpad } from '../dist/service/scratchpad.js';
import { openStore } from '../dist/stores/open-store.js';
import { CHROMIUM_LAUNCH } from '../dist/testing/chromium-launch.js';
import { serveUi } from '../dist/ui/serve-ui.js';
import { median, printTable, round } from './lib/measure.js';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '1024' },
    rounds: { type: 'string', default: '5' },
    json: { type: 'string', default: 'bench/results/ui.json' },
  },
});
const megabytes = Number(values.mb);
const rounds = Number(values.rounds);

async function* logLines(bytes) {
  let written = 0;
  let line = 0;
  while (written < bytes) {
    let piece = '';
    while (piece.length < 1 << 20) {
      line += 1;
      piece += `2026-11-24T12:00:00Z INFO request ${String(line).padStart(9, '0')} served in ${line % 97} ms path=/api/items/${line % 1000}\n`;
    }
    written += piece.length;
    yield piece;
  }
}

const home = mkdtempSync(join(tmpdir(), 'bench-ui-'));
const scratchpad = createScratchpad({ driver: await openStore(`sqlite:${join(home, 'store.db')}`) });
console.log(`writing a ${megabytes} MB entry…`);
const big = (await scratchpad.write('bench', 'big', logLines(megabytes * 1024 * 1024), { kind: 'text' }))
  .entry;
const smallText = Array.from(
  { length: 12 },
  (_, index) => `2026-11-24T12:00:00Z INFO request ${String(index + 1).padStart(9, '0')} served`,
).join('\n');
const small = (await scratchpad.write('bench', 'small', `${smallText}\n`)).entry;
const server = await serveUi({
  scratchpad,
  turnLogDir: join(home, 'turns'),
  address: '127.0.0.1:0',
  log: () => {},
});
const browser = await chromium.launch(CHROMIUM_LAUNCH);
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
let largest = { bytes: 0, url: '' };
let largestApi = { bytes: 0, url: '' };
const sizing = [];
page.on('requestfinished', (request) => {
  const measured = request
    .sizes()
    .then((sizes) => {
      const seen = { bytes: sizes.responseBodySize, url: request.url() };
      if (seen.bytes > largest.bytes) largest = seen;
      if (seen.url.includes('/api/') && seen.bytes > largestApi.bytes) largestApi = seen;
    })
    .catch(() => {});
  sizing.push(measured);
});

async function firstPaint(entry) {
  await page.goto('about:blank');
  const started = performance.now();
  await page.goto(`http://127.0.0.1:${server.port}/#/entry/bench/${entry.id}`);
  await page.waitForFunction(() =>
    /request \d+/.test(document.querySelector('.row[data-line="1"] .text')?.textContent ?? ''),
  );
  return performance.now() - started;
}

const times = { small: [], big: [] };
await firstPaint(small); // warm-up: the browser caches the app's assets
for (let round = 0; round < rounds; round += 1) {
  for (const [name, entry] of round % 2 === 0
    ? [
        ['small', small],
        ['big', big],
      ]
    : [
        ['big', big],
        ['small', small],
      ]) {
    times[name].push(await firstPaint(entry));
  }
}
await new Promise((resolve) => setTimeout(resolve, 200));
await Promise.all(sizing);
const result = {
  entryBytes: { big: big.bytes, small: small.bytes },
  bigLines: big.lines,
  firstPaintMs: { small: round(median(times.small), 1), big: round(median(times.big), 1) },
  samplesMs: { small: times.small.map((ms) => round(ms, 1)), big: times.big.map((ms) => round(ms, 1)) },
  largestResponse: largest,
  largestApiResponse: largestApi,
  rounds,
};
printTable(
  ['entry', 'bytes', 'first paint (median ms)', 'samples'],
  [
    [`${small.bytes} B`, small.bytes, result.firstPaintMs.small, result.samplesMs.small.join(' ')],
    [`${megabytes} MB`, big.bytes, result.firstPaintMs.big, result.samplesMs.big.join(' ')],
  ],
);
console.log(`largest response: ${largest.bytes} bytes (${largest.url})`);
console.log(`largest API response: ${largestApi.bytes} bytes (${largestApi.url})`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
await browser.close();
await server.close();
await scratchpad.close();
rmSync(home, { recursive: true, force: true });
