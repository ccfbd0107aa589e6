// npm run bench:proxy — what `scratchpad proxy` adds to one small tools/call. An upstream MCP server (official SDK,
// stdio, one `echo` tool) is called by an official SDK client directly and through `scratchpad proxy` (the built
// CLI, its own SQLite database), in alternated rounds of BENCH_PROXY_CALLS sequential calls each (default 200;
// the order inside a pair of rounds flips every round). Each call echoes a small text (about 80 bytes). Reports the
// median per-call latency of each path, over all calls and over the rounds' medians, and the added ms per call
// (median proxied minus median direct, and the median of the paired round differences), and the proxy process's
// CPU time per call (from /proc: less swayed by other load than wall time on a shared machine).
// BENCH_PROXY_ROUNDS sets the number of round pairs (default 6). Writes bench/results/proxy.json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, printTable, quantile, round } from './lib/measure.js';

const CALLS = Number(process.env.BENCH_PROXY_CALLS ?? 200);
const ROUNDS = Number(process.env.BENCH_PROXY_ROUNDS ?? 6);
const WARMUP_CALLS = 50;

const upstream = fileURLToPath(new URL('./lib/echo-upstream.js', import.meta.url));
// BENCH_PROXY_CLI runs another build's CLI (e.g. the code before a change, built elsewhere) for comparisons.
const cli = process.env.BENCH_PROXY_CLI ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'scratchpad-bench-proxy-'));

async function connect(command, args, env) {
  const client = new Client({ name: 'bench-proxy', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args, env, stderr: 'inherit' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** CPU milliseconds (user + system) a process has used, from /proc (Linux, 100 ticks a second); else NaN. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Milliseconds of each of `count` sequential small calls. */
async function calls(client, count) {
  const times = [];
  for (let index = 0; index < count; index++) {
    const text = `call ${index}: a small result of about eighty bytes, like a status line or an id.`;
    const started = performance.now();
    const result = await client.callTool({ name: 'echo', arguments: { text } });
    times.push(performance.now() - started);
    if (result.isError || result.content?.[0]?.text !== text)
      throw new Error(`echo answered ${JSON.stringify(result).slice(0, 300)}`);
  }
  return times;
}

try {
  const env = {
    ...process.env,
    XDG_DATA_HOME: join(directory, 'data'),
    XDG_CONFIG_HOME: join(directory, 'config'),
  };
  const { client: direct } = await connect(process.execPath, [upstream], env);
  const { client: proxied, pid: proxyPid } = await connect(
    process.execPath,
    [
      cli,
      '--db',
      join(directory, 'proxy.db'),
      '--session',
      'bench',
      'proxy',
      '--',
      process.execPath,
      upstream,
    ],
    env,
  );
  const paths = { direct, proxied };
  try {
    console.log(
      `${ROUNDS} alternated pairs of rounds, ${CALLS} sequential small calls per round; load average ${round(loadavg()[0], 2)} on ${availableParallelism()} cores\n`,
    );
    await calls(direct, WARMUP_CALLS);
    await calls(proxied, WARMUP_CALLS);
    const all = { direct: [], proxied: [] };
    let proxyCpuMs = 0;
    const roundMedians = { direct: [], proxied: [], added: [] };
    for (let pair = 0; pair < ROUNDS; pair++) {
      const order = pair % 2 === 0 ? ['direct', 'proxied'] : ['proxied', 'direct'];
      for (const path of order) {
        const cpuBefore = cpuMs(proxyPid);
        const times = await calls(paths[path], CALLS);
        if (path === 'proxied') proxyCpuMs += cpuMs(proxyPid) - cpuBefore;
        all[path].push(...times);
        roundMedians[path].push(median(times));
      }
      roundMedians.added.push(roundMedians.proxied.at(-1) - roundMedians.direct.at(-1));
    }
    const directMs = median(all.direct);
    const proxiedMs = median(all.proxied);
    printTable(
      ['per call', 'median ms', 'p95 ms'],
      [
        ['direct to the upstream', round(directMs, 3), round(quantile(all.direct, 0.95), 3)],
        ['through scratchpad proxy', round(proxiedMs, 3), round(quantile(all.proxied, 0.95), 3)],
        ['added (median of round differences)', round(median(roundMedians.added), 3), ''],
      ],
    );
    const proxyCpuPerCallMs = proxyCpuMs / (CALLS * ROUNDS);
    console.log(`\nproxied / direct: ${round(proxiedMs / directMs, 2)}×`);
    console.log(
      `CPU of the proxy process per call (user + system, /proc, 10 ms ticks): ${round(proxyCpuPerCallMs, 3)} ms`,
    );
    const results = {
      cli,
      calls: CALLS,
      rounds: ROUNDS,
      loadAverage: round(loadavg()[0], 2),
      cores: availableParallelism(),
      directMedianMs: round(directMs, 3),
      proxiedMedianMs: round(proxiedMs, 3),
      addedMs: round(proxiedMs - directMs, 3),
      addedRoundMedianMs: round(median(roundMedians.added), 3),
      ratio: round(proxiedMs / directMs, 2),
      proxyCpuPerCallMs: round(proxyCpuPerCallMs, 3),
    };
    const json = JSON.stringify(results);
    const output = fileURLToPath(new URL('./results/proxy.json', import.meta.url));
    mkdirSync(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\n${json}\nwrote bench/results/proxy.json`);
  } finally {
    await Promise.all([direct.close(), proxied.close()]);
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
