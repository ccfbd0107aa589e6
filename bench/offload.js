/**
 * Offload benchmark: `npm run bench:offload [-- options]` (builds dist/ first, then `node --expose-gc bench/offload.js`).
 *
 * A big tool result (log, JSON and CSV text of 10 MB and 100 MB, held as one string as a tool returns it) is stored
 * on SQLite (a file store in a temporary directory) four ways, in alternated order pair by pair:
 *   - tool: through `wrapTools` (a host tool returning the text: preview, redaction of what is shown, store);
 *   - proxy: through an offloader built as the MCP proxy builds its own (`createOffloadPolicy({ readTool })`);
 *   - write: `session.write` of the same text;
 *   - plain: `writeFile` + fsync of the same text to a file in the same directory.
 * Each stored entry is deleted after its run, so every run creates a new entry in a store of the same size.
 * Prints the medians and the medians of the per-pair ratios (tool/write, proxy/write, plain/write: a write at
 * ≥ 0.8× writeFile+fsync is plain/write ≥ 0.8), with the machine's load, and writes bench/results/offload.json.
 *   --sizes 10,100   sizes in MB (10^6 bytes)       --pairs N   pairs per size and kind (default 5)
 *   --kinds log,json,csv                            --json PATH  where to write the results
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionValue, requireBuilt } from './lib/command-line.js';
import { logBuffer, random } from './lib/log-text.js';
import { median, printTable, round, time } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
requireBuilt('bench:offload');
const { createScratchpad } = await import('../dist/index.js');
const { createSqliteDriver } = await import('../dist/stores/sqlite/index.js');
const { createOffloader, createOffloadPolicy } = await import('../dist/context/offload/index.js');
const { wrapTools, TOOL_NAMES } = await import('../dist/tools/index.js');

const given = process.argv.slice(2);
const SIZES_MB = optionValue('--sizes', '10,100', given).split(',').map(Number);
const KINDS = optionValue('--kinds', 'log,json,csv', given).split(',');
const PAIRS = Number(optionValue('--pairs', '5', given));
const JSON_PATH = optionValue('--json', join(here, 'results', 'offload.json'), given);
const SESSION = 'bench';
const MB = 1_000_000;
const log = (message) => console.error(`· ${message}`);

/** `bytes` of text of `kind`, as one flat string (read once, so no run pays for flattening it). */
function textOf(kind, bytes) {
  if (kind === 'log') return logBuffer(bytes, { seed: 11 }).toString('utf8');
  const next = random(29);
  const parts = [];
  let size = 0;
  const push = (part) => {
    parts.push(part);
    size += Buffer.byteLength(part);
  };
  if (kind === 'csv') push('id,time,user,service,status,duration_ms,path,note\n');
  else push('[\n');
  const users = ['alice', 'bob', 'françois', 'zoë', '太郎', 'søren'];
  for (let row = 0; size < bytes; row++) {
    const user = users[Math.floor(next() * users.length)];
    const status = next() < 0.95 ? 200 : 500 + Math.floor(next() * 4);
    const duration = Math.floor(next() * 900);
    const path = `/v1/items/${Math.floor(next() * 100000)}`;
    if (kind === 'csv') {
      push(
        `${row},2025-01-15T08:${String(row % 60).padStart(2, '0')}:00Z,${user},api-${row % 8},${status},${duration},${path},"ok, fine"\n`,
      );
    } else {
      const record = {
        id: row,
        user,
        service: `api-${row % 8}`,
        status,
        durationMs: duration,
        path,
        tags: ['a', 'b'],
      };
      push(`${row === 0 ? '' : ',\n'}  ${JSON.stringify(record)}`);
    }
  }
  if (kind === 'json') push('\n]\n');
  const text = parts.join('');
  text.charCodeAt(text.length >> 1); // flattens the rope now
  return text;
}

async function main() {
  const directory = await mkdtemp(join(tmpdir(), 'scratchpad-offload-bench-'));
  const scratchpad = createScratchpad({ driver: createSqliteDriver({ path: join(directory, 'store.db') }) });
  const session = scratchpad.session(SESSION);
  const out = {
    machine: { cpus: cpus().length, loadBefore: loadavg().map((value) => round(value, 2)) },
    pairs: PAIRS,
    runs: [],
  };
  try {
    let current = '';
    const host = {
      name: 'big_output',
      inputSchema: { type: 'object', properties: {} },
      execute: () => current,
    };
    const [tool] = wrapTools([host], { session });
    const proxyOffloader = createOffloader({
      session,
      policy: createOffloadPolicy({ readTool: TOOL_NAMES.read }),
    });
    const plainPath = join(directory, 'plain.txt');
    for (const mb of SIZES_MB) {
      for (const kind of KINDS) {
        current = textOf(kind, mb * MB);
        const text = current;
        const ways = {
          tool: async () => {
            const result = await tool.execute({});
            if (!result.entry) throw new Error('the tool result was not offloaded');
            await session.delete({ id: result.entry.id });
          },
          proxy: async () => {
            const outcome = await proxyOffloader.process({ tool: 'upstream_tool', result: text });
            if (!outcome.offloaded) throw new Error('the proxied result was not offloaded');
            await session.delete({ id: outcome.entry.id });
          },
          write: async () => {
            const { entry } = await session.write('written', text);
            await session.delete({ id: entry.id });
          },
          plain: async () => {
            const handle = await open(plainPath, 'w');
            await handle.writeFile(text);
            await handle.sync();
            await handle.close();
          },
        };
        const names = Object.keys(ways);
        const ms = Object.fromEntries(names.map((name) => [name, []]));
        for (let pair = 0; pair < PAIRS; pair++) {
          log(`${mb} MB ${kind}: pair ${pair + 1}/${PAIRS}`);
          // Rotate the order pair by pair, so each way runs first, second… as often as the others.
          const order = names.map((_, index) => names[(index + pair) % names.length]);
          for (const name of order) {
            globalThis.gc?.();
            ms[name].push((await time(ways[name])).ms);
          }
        }
        const ratio = (a, b) => round(median(ms[a].map((value, index) => value / ms[b][index])), 3);
        out.runs.push({
          kind,
          mb,
          bytes: Buffer.byteLength(text),
          ms: Object.fromEntries(names.map((name) => [name, ms[name].map((value) => round(value, 1))])),
          medianMs: Object.fromEntries(names.map((name) => [name, round(median(ms[name]), 1)])),
          toolOverWrite: ratio('tool', 'write'),
          proxyOverWrite: ratio('proxy', 'write'),
          // Speed of a write against writeFile+fsync: their time over ours.
          writeSpeedOfPlain: ratio('plain', 'write'),
        });
        current = '';
      }
    }
  } finally {
    await scratchpad.close?.();
    await rm(directory, { recursive: true, force: true });
  }
  out.machine.loadAfter = loadavg().map((value) => round(value, 2));
  console.log(
    `\nOffload on SQLite: medians of ${PAIRS} alternated runs each; ratios are medians of per-pair ratios ` +
      `(load ${out.machine.loadBefore.join(' ')} → ${out.machine.loadAfter.join(' ')}, ${out.machine.cpus} CPUs)\n`,
  );
  printTable(
    [
      'size',
      'kind',
      'tool ms',
      'proxy ms',
      'write ms',
      'writeFile+fsync ms',
      'tool/write',
      'proxy/write',
      'write speed vs writeFile+fsync',
    ],
    out.runs.map((run) => [
      `${run.mb} MB`,
      run.kind,
      run.medianMs.tool,
      run.medianMs.proxy,
      run.medianMs.write,
      run.medianMs.plain,
      `${run.toolOverWrite}×`,
      `${run.proxyOverWrite}×`,
      `${run.writeSpeedOfPlain}×`,
    ]),
  );
  console.log(
    '\nTargets: tool/write and proxy/write ≤ 1.3× at 100 MB; write speed ≥ 0.8× writeFile+fsync at 100 MB.',
  );
  mkdirSync(dirname(JSON_PATH), { recursive: true });
  writeFileSync(JSON_PATH, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`Wrote ${JSON_PATH}`);
}

await main();
