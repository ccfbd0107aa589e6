// node bench/session-handles.js (after npm run build) — what a session handle adds to one tool call of
// `scratchpad mcp` under MCP 2026-07-28 (decision 019): the handle's store look-up and the session's tools built
// for the call. In process, on a SQLite store, no transport: `scratchpad_read` of a small entry, called with a
// handle and without one (the server's own session), in alternated rounds of BENCH_HANDLES_CALLS sequential calls
// (default 500; the order inside a pair flips every round), BENCH_HANDLES_ROUNDS pairs (default 6). Prints the
// median per-call time of each, the added time (median of the paired round differences), and writes
// bench/results/session-handles.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serveSession } from '../dist/mcp/served-session.js';
import { SessionHandleTools } from '../dist/mcp/session-handle-tools.js';
import { SessionHandles } from '../dist/mcp/session-handles.js';
import { createScratchpad } from '../dist/service/scratchpad.js';
import { createSqliteDriver } from '../dist/stores/sqlite/sqlite-driver.js';
import { createPreset } from '../dist/tools/presets/create-preset.js';
import { median, printTable, round } from './lib/measure.js';

const CALLS = Number(process.env.BENCH_HANDLES_CALLS ?? 500);
const ROUNDS = Number(process.env.BENCH_HANDLES_ROUNDS ?? 6);
const directory = mkdtempSync(join(tmpdir(), 'scratchpad-bench-handles-'));

/** Milliseconds of each of `count` sequential reads with `args`. */
async function calls(tools, args, count) {
  const times = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const result = await tools.call('scratchpad_read', args);
    times.push(performance.now() - started);
    if (result.isError) throw new Error(`read failed: ${JSON.stringify(result).slice(0, 300)}`);
  }
  return times;
}

try {
  const scratchpad = createScratchpad({ driver: createSqliteDriver({ path: join(directory, 'store.db') }) });
  const options = { scratchpad, session: 'own', preset: createPreset('default') };
  const tools = new SessionHandleTools(new SessionHandles(scratchpad), serveSession(options), (session) =>
    serveSession({ ...options, session }),
  );
  const handle = (await tools.call('scratchpad_session', {})).structuredContent.handle;
  const content = 'a small entry: a status line or an id, about eighty bytes long, read whole.\n';
  await tools.call('scratchpad_write', { name: 'note', content });
  await tools.call('scratchpad_write', { session: handle, name: 'note', content });
  const sides = {
    own: { name: 'note' },
    handle: { session: handle, name: 'note' },
  };
  await calls(tools, sides.own, 100);
  await calls(tools, sides.handle, 100);

  const rounds = [];
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    const order = round_ % 2 === 0 ? ['own', 'handle'] : ['handle', 'own'];
    const medians = {};
    for (const side of order) medians[side] = median(await calls(tools, sides[side], CALLS));
    rounds.push(medians);
  }
  const own = median(rounds.map((round_) => round_.own));
  const withHandle = median(rounds.map((round_) => round_.handle));
  const added = median(rounds.map((round_) => round_.handle - round_.own));
  printTable(
    ['call', 'median ms per call (round medians)', 'added ms (paired)'],
    [
      ['scratchpad_read, own session', round(own, 4), ''],
      ['scratchpad_read, with a handle', round(withHandle, 4), round(added, 4)],
    ],
  );
  const load = loadavg();
  console.log(
    `${ROUNDS} round pairs of ${CALLS} calls; load ${load.map((value) => round(value, 2)).join(' ')} on ${availableParallelism()} cores`,
  );
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('./results/session-handles.json', import.meta.url),
    `${JSON.stringify({ calls: CALLS, rounds: ROUNDS, load, perRound: rounds, ownMs: own, handleMs: withHandle, addedMs: added }, null, 2)}\n`,
  );
  await scratchpad.close();
} finally {
  rmSync(directory, { recursive: true, force: true });
}
