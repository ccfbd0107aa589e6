// npm run bench:proxy-http — what `scratchpad proxy` adds to one small tool call when both sides are Streamable
// HTTP: the conformance fixture (test/conformance/fixture-server.mjs --http) called directly, through
// `scratchpad proxy --url <fixture> --http 127.0.0.1:0`, and through the least forwarder the official SDK makes
// (bench/lib/sdk-forwarder.js: the floor of one extra hop), each by its own official-SDK client with an open session,
// in rounds that go through the six orders of the three in turn. The calls are small (test_simple_text: one text
// block; test_multiple_content_types: text, a 1×1 PNG and a short resource), so nothing is stored: this is the
// per-call cost of the extra hop, not of offloading. Reports the median and p95 of each and of the paired
// differences from the direct call, and writes them as JSON to bench/results/proxy-http.json (or --json PATH).
// A shared machine swells the tails; the load average is printed with the figures (`chrt -f 10` steadies them).
//
//   node bench/proxy-http.js [--rounds N (default 300)] [--json PATH]     (from a built checkout)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawnServer } from '../scripts/lib/spawn-server.mjs';
import { median, printTable, quantile, round } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cli = join(root, 'dist/cli/main.js');
const fixture = join(root, 'test/conformance/fixture-server.mjs');

function optionValue(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
}
const ROUNDS = Number(optionValue('--rounds', '300'));
const round2 = (value) => round(value, 2);
const output = optionValue('--json', join(here, 'results', 'proxy-http.json'));
if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
  throw new Error(`--rounds takes a whole number above 0, not ${ROUNDS}`);
const SIDES = ['direct', 'forwarder', 'proxy'];
/** The six orders of the three sides; round r takes ORDERS[r % 6]. */
const ORDERS = SIDES.flatMap((a) =>
  SIDES.filter((b) => b !== a).map((b) => [a, b, SIDES.find((c) => c !== a && c !== b)]),
);

const work = mkdtempSync(join(tmpdir(), 'scratchpad-bench-proxy-http-'));
const children = [];

/** Starts a server and resolves with the URL it prints on stderr (`… at http://…/mcp`). */
function start(name, args) {
  const { child, url } = spawnServer(args, {
    name,
    cwd: root,
    env: { ...process.env, XDG_DATA_HOME: join(work, `data-${name}`) },
  });
  children.push(child);
  return url;
}

async function connect(url) {
  const client = new Client({ name: 'bench-proxy-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

try {
  const fixtureUrl = await start('fixture', [fixture, '--http', '0']);
  const proxyUrl = await start('proxy', [cli, 'proxy', '--url', fixtureUrl, '--http', '127.0.0.1:0']);
  const forwarderUrl = await start('forwarder', [join(here, 'lib/sdk-forwarder.js'), fixtureUrl]);
  const clients = {
    direct: await connect(fixtureUrl),
    forwarder: await connect(forwarderUrl),
    proxy: await connect(proxyUrl),
  };

  const calls = ['test_simple_text', 'test_multiple_content_types'];
  console.log(
    `direct:    ${fixtureUrl}\nforwarder: ${forwarderUrl} (bench/lib/sdk-forwarder.js)\nproxy:     ${proxyUrl} (proxy --url the fixture)\n${ROUNDS} rounds per tool, each side once a round, orders rotated; load average ${round(loadavg()[0], 2)} on ${availableParallelism()} cores\n`,
  );
  const rows = [];
  const results = {};
  for (const name of calls) {
    const once = async (side) => {
      const started = performance.now();
      const result = await clients[side].callTool({ name, arguments: {} });
      const ms = performance.now() - started;
      if (result.isError || !Array.isArray(result.content) || result.content.length === 0)
        throw new Error(`${name} via ${side} did not return its content: ${JSON.stringify(result)}`);
      return ms;
    };
    // Warm every path (JIT, connection pools, the proxy's tool list) before anything is counted.
    for (let warm = 0; warm < 20; warm++) for (const side of SIDES) await once(side);
    const times = { direct: [], forwarder: [], proxy: [] };
    for (let index = 0; index < ROUNDS; index++)
      for (const side of ORDERS[index % ORDERS.length]) times[side].push(await once(side));
    const added = (side) => times[side].map((ms, index) => ms - times.direct[index]);
    const spread = (values) => [round2(median(values)), round2(quantile(values, 0.95))];
    rows.push([`${name}, direct`, ...spread(times.direct)]);
    rows.push([`${name}, through the SDK forwarder`, ...spread(times.forwarder)]);
    rows.push([`${name}, through scratchpad proxy`, ...spread(times.proxy)]);
    rows.push([`${name}, added by the SDK forwarder (paired)`, ...spread(added('forwarder'))]);
    rows.push([`${name}, added by scratchpad proxy (paired)`, ...spread(added('proxy'))]);
    results[name] = {
      directMedianMs: round(median(times.direct), 3),
      forwarderMedianMs: round(median(times.forwarder), 3),
      proxyMedianMs: round(median(times.proxy), 3),
      forwarderAddedMedianMs: round(median(added('forwarder')), 3),
      forwarderAddedP95Ms: round(quantile(added('forwarder'), 0.95), 3),
      proxyAddedMedianMs: round(median(added('proxy')), 3),
      proxyAddedP95Ms: round(quantile(added('proxy'), 0.95), 3),
    };
  }
  printTable(['call', 'median ms', 'p95 ms'], rows);
  const report = {
    rounds: ROUNDS,
    node: process.version,
    loadAverage: round(loadavg()[0], 2),
    cores: availableParallelism(),
    results,
  };
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${JSON.stringify(report)}\nwritten to ${output}`);
  await Promise.all(Object.values(clients).map((client) => client.close()));
} finally {
  for (const child of children) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
