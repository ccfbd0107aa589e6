// npm run bench:whole-file — issue 26: `fs_read` of a 45.6 MB log (500,000 lines) through `scratchpad run`, against
// a fake Ollama on 127.0.0.1 (fs_read, then scratchpad_read of line 249,070, then the answer), the default
// bubblewrap sandbox on. Reports wall time and peak RSS (GNU time's %M: the largest single process of the tree,
// the CLI or an executor) of each run, the stored entry's size, and what the line read answered. Also the fs_read
// executor alone, its content channel sent to /dev/null. BENCH_CLI=path/to/dist/cli/main.js measures another build
// (a checkout of an earlier commit) with the same script; BENCH_RUNS sets the repetitions (default 3), BENCH_LINES
// the file's lines (default 500,000).
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createOffloader, createOffloadPolicy } from '../dist/context/offload/index.js';
import { createScratchpad } from '../dist/service/scratchpad.js';
import { createSqliteDriver } from '../dist/stores/sqlite/index.js';
import { startFakeOllama } from '../dist/testing/fake-servers/index.js';
import { loadCatalog } from '../packages/runtime/dist/executors/load-catalog.js';
import { runExecutorDetailed } from '../packages/runtime/dist/executors/run-executor.js';
import { ensureShippedExecutors } from '../packages/runtime/dist/executors/shipped-executors.js';
import { createContentIntake } from '../packages/runtime/dist/planner/content-intake.js';
import { createNoSandbox } from '../packages/runtime/dist/sandbox/no-sandbox.js';
import { median } from './lib/measure.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = resolve(process.env.BENCH_CLI ?? join(root, 'dist/cli/main.js'));
const executor = join(dirname(dirname(cli)), '..', 'executors', 'fs_read', 'index.mjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LINES = Number(process.env.BENCH_LINES ?? 500_000);
const WANTED = 249_070;

const line = (n) =>
  `2026-04-26T10:00:00Z INFO request ${n} served by worker ${n % 13} in ${n % 97} ms status=ok trace=ab12cd\n`;

const home = mkdtempSync(join(tmpdir(), 'bench-whole-file-'));
const work = join(home, 'work');
mkdirSync(work);
const file = join(work, 'big.log');
await new Promise((done) => {
  const out = createWriteStream(file);
  let n = 1;
  const more = () => {
    while (n <= LINES) {
      let batch = '';
      for (let i = 0; i < 5000 && n <= LINES; i++, n++) batch += line(n);
      if (!out.write(batch)) return out.once('drain', more);
    }
    out.end(done);
  };
  more();
});
const bytes = Number(execFileSync('stat', ['-c', '%s', file], { encoding: 'utf8' }));

/** Runs `command` under GNU time; returns its stdout, wall seconds and peak RSS in KiB. */
function timed(command, args, options, input) {
  return new Promise((done, fail) => {
    const stats = join(home, 'time.txt');
    const child = spawn('/usr/bin/time', ['-f', '%e %M', '-o', stats, command, ...args], options);
    if (input !== undefined) child.stdin.end(input);
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const [seconds, kib] = readFileSync(stats, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
      done({ code, stdout, seconds, kib });
    });
  });
}

const devNull = openSync('/dev/null', 'w');
const results = { executor: [], run: [] };
for (let run = 0; run < RUNS; run++) {
  // The executor alone: stdin the arguments, fd 3 (the content channel) to /dev/null.
  const alone = await timed(
    process.execPath,
    [executor],
    {
      env: { PATH: process.env.PATH, SCRATCHPAD_CONTENT_FD: '3' },
      // An fd of our own: with 'ignore', fd 3 would stay free and GNU time's -o file would take it.
      stdio: ['pipe', 'pipe', 'inherit', devNull],
    },
    JSON.stringify({ path: file }),
  );
  results.executor.push(alone);

  const seen = {};
  const server = await startFakeOllama([
    () => ({ toolCalls: [{ name: 'fs_read', arguments: { path: file } }] }),
    (request) => {
      seen.observation = String(request.body.messages.at(-1).content);
      const name = /stored as (\S+) \(/.exec(seen.observation)?.[1] ?? 'fs_read_1';
      return { toolCalls: [{ name: 'scratchpad_read', arguments: { name, lines: `${WANTED}:${WANTED}` } }] };
    },
    (request) => {
      seen.line = String(request.body.messages.at(-1).content);
      return 'Done.';
    },
  ]);
  const cliRun = await timed(
    process.execPath,
    [cli, '--db', join(home, `run-${run}.db`), 'run', `read ${file} and show line ${WANTED}`, '--quiet'],
    {
      cwd: work,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_DATA_HOME: join(home, 'data'),
        XDG_CONFIG_HOME: join(home, 'config'),
        OLLAMA_HOST: server.url,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await server.close();
  results.run.push({
    ...cliRun,
    header: seen.observation?.split('\n')[0],
    line: seen.line?.split('\n').find((text) => text.includes(String(WANTED))) ?? seen.line?.slice(0, 200),
  });
}
const mib = (kib) => `${(kib / 1024).toFixed(0)} MiB`;
console.log(
  `file: ${bytes.toLocaleString('en-US')} bytes, ${LINES.toLocaleString('en-US')} lines; cli ${cli}`,
);
console.log(
  `scratchpad run (fs_read + line read + answer), ${RUNS} runs: wall median ${median(results.run.map((r) => r.seconds)).toFixed(2)} s, peak RSS median ${mib(median(results.run.map((r) => r.kib)))} (runs: ${results.run.map((r) => `${r.seconds} s/${mib(r.kib)}`).join(', ')})`,
);
const reply = JSON.parse(results.executor[0].stdout);
console.log(
  `fs_read executor alone, ${RUNS} runs: wall median ${median(results.executor.map((r) => r.seconds)).toFixed(2)} s, peak RSS median ${mib(median(results.executor.map((r) => r.kib)))}; it kept ${reply.metadata?.bytes_read?.toLocaleString('en-US')} bytes (${reply.content_stream ? 'streamed on the channel' : 'inline in its JSON'})`,
);
console.log(`observation header: ${results.run[0].header}`);
console.log(`line ${WANTED} read: ${results.run[0].line}`);

// In this process (this build only): the shipped fs_read streamed into a SQLite store through the runtime's
// intake, and the event loop's longest stall meanwhile (sampled every 10 ms).
if (!process.env.BENCH_CLI) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, 'd'),
    XDG_CONFIG_HOME: join(home, 'c'),
  };
  const installed = await ensureShippedExecutors({ env });
  const { executors } = await loadCatalog({
    dirs: [installed.executorsDir],
    trustedKeys: installed.trustedKeys,
  });
  const fsRead = executors.find((item) => item.name === 'fs_read');
  const scratchpad = createScratchpad({ driver: createSqliteDriver({ path: join(home, 'intake.db') }) });
  const offloader = createOffloader({ session: scratchpad.session('bench'), policy: createOffloadPolicy() });
  const stalls = [];
  for (let run = 0; run < RUNS; run++) {
    const intake = createContentIntake(offloader, { tool: 'fs_read', turn: `t${run}`, step: 1 });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    await runExecutorDetailed(
      fsRead,
      { path: file },
      { sandbox: createNoSandbox(), receiveContent: intake.receive },
    );
    const received = intake.received();
    const described = await offloader.describeStored({
      tool: 'fs_read',
      entry: received.entry,
      metadata: {},
      shell: {},
    });
    delay.disable();
    stalls.push({ ms: performance.now() - started, max: delay.max / 1e6, entry: described.entry.bytes });
  }
  await scratchpad.close();
  console.log(
    `in process, fs_read → intake → SQLite entry + preview, ${RUNS} runs: wall median ${median(stalls.map((s) => s.ms)).toFixed(0)} ms, longest event-loop stall median ${median(stalls.map((s) => s.max)).toFixed(1)} ms (runs: ${stalls.map((s) => `${s.max.toFixed(1)} ms`).join(', ')}); entry ${stalls[0].entry.toLocaleString('en-US')} bytes`,
  );
}
rmSync(home, { recursive: true, force: true });
