import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchpad, type Scratchpad } from 'llm-scratchpad';
import { openStore } from 'llm-scratchpad';
import { serveUi, type UiServer } from 'llm-scratchpad/ui';
import type { Executor } from '../executors/executor.js';
import { runExecutorDetailed } from '../executors/run-executor.js';
import { createSandbox } from './create-sandbox.js';
import type { Sandbox } from './sandbox.js';
import { defaultSandboxSettings } from './sandbox-settings.js';
import { sandboxTestHome } from './test-fixtures/sandbox-test-home.js';

// Issue 26: with /tmp and /run readable, no host unix socket may be reachable from a call. Each kind is a real
// listening socket where it lives on a machine (or an equivalent name next to it), plus one in the working
// directory and one in the home, which no hiding of /tmp and /run covers, and an abstract one.
const tag = Math.random().toString(36).slice(2, 8);
const uid = process.getuid?.() ?? 0;
const created: string[] = [];
const servers: Server[] = [];
let root: string;
let home: string;
let work: string;
let sandbox: Sandbox;
let shellExec: Executor;
let scratchpad: Scratchpad;
let ui: UiServer;
let env: Record<string, string>;
const sockets: Record<string, string> = {};

/** A folder for a socket: made (and later removed) only when missing, left alone when it exists. */
async function folder(path: string, mode = 0o700): Promise<string> {
  if (!existsSync(path)) {
    await mkdir(path, { recursive: true, mode });
    created.push(path);
  }
  return path;
}

async function listen(name: string, path: string): Promise<void> {
  const server = createServer((connection) => {
    connection.on('error', () => undefined);
    connection.end('reached\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  servers.push(server);
  sockets[name] = path;
  if (!path.startsWith('\0')) created.push(path);
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'scratchpad-sockets-')));
  home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(home, { recursive: true });
  await mkdir(work, { recursive: true });
  const testHome = await sandboxTestHome(home);
  env = testHome.env;
  shellExec = testHome.executors.get('shell_exec') as Executor;
  sandbox = await createSandbox({
    settings: defaultSandboxSettings(),
    cwd: work,
    env,
    scratchpadPaths: testHome.scratchpadPaths,
  });
  const ssh = await mkdtemp(join('/tmp', 'ssh-'));
  created.push(ssh);
  await listen('ssh-agent', join(ssh, `agent.${process.pid}`));
  await listen(
    'X11',
    join(await folder('/tmp/.X11-unix', 0o1777), `X${900 + Math.floor(Math.random() * 99)}`),
  );
  await listen('tmux', join(await folder(`/tmp/tmux-${uid}`), `scratchpad-${tag}`));
  await listen('D-Bus session', join(await folder(`/run/user/${uid}`), `bus-scratchpad-${tag}`));
  await listen('D-Bus system', join(await folder('/run/dbus', 0o755), `system_bus_socket-${tag}`));
  await listen(
    'PostgreSQL',
    join(await folder('/run/postgresql', 0o2775), `.s.PGSQL.${50000 + Math.floor(Math.random() * 9999)}`),
  );
  await listen('MySQL', join(await folder('/run/mysqld', 0o755), `mysqld-${tag}.sock`));
  await listen('Docker', `/run/docker-${tag}.sock`);
  await listen('working directory', join(work, 'dev-server.sock'));
  await listen('home', join(home, `.agent-${tag}.sock`));
  await listen('abstract', `\0scratchpad-test-${tag}`);
  // The real MariaDB socket of this machine, when there is one.
  if (existsSync('/run/mysqld/mysqld.sock')) sockets['MySQL (running server)'] = '/run/mysqld/mysqld.sock';
  scratchpad = createScratchpad({ driver: await openStore(`sqlite:${join(root, 'store.db')}`) });
  ui = await serveUi({
    scratchpad,
    turnLogDir: join(root, 'turns'),
    address: '127.0.0.1:0',
    log: () => undefined,
  });
  // The probe: one line per socket, "name: connected" or "name: CODE".
  await writeFile(
    join(work, 'probe.mjs'),
    `import { createConnection } from 'node:net';
const targets = JSON.parse(process.argv[2]);
for (const [name, target] of Object.entries(targets)) {
  const result = await new Promise((resolve) => {
    const socket = typeof target === 'number' ? createConnection(target, '127.0.0.1') : createConnection(target);
    socket.once('connect', () => { socket.destroy(); resolve('connected'); });
    socket.once('error', (error) => resolve(error.code));
  });
  console.log(name + ': ' + result);
}
`,
  );
}, 60_000);

afterAll(async () => {
  await ui?.close();
  await scratchpad?.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  for (const path of created.reverse()) await rm(path, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

function connectFromHost(target: string | number): Promise<string> {
  return new Promise((resolve) => {
    const socket =
      typeof target === 'number' ? createConnection(target, '127.0.0.1') : createConnection(target);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('no host socket is reachable from a sandboxed call (real bwrap)', () => {
  it('refuses every unix socket, by path or abstract, and the loopback server of `scratchpad ui` (`mcp --http` listens the same way)', async () => {
    const targets: Record<string, string | number> = { ...sockets, 'scratchpad ui (127.0.0.1)': ui.port };
    for (const [name, target] of Object.entries(targets))
      expect(`${name}: ${await connectFromHost(target)}`).toBe(`${name}: connected`);
    const result = await runExecutorDetailed(
      shellExec,
      { command: `node probe.mjs '${JSON.stringify(targets)}'` },
      // Even a variable that names the agent's socket does not help.
      { cwd: work, sandbox, parentEnv: env, env: { SSH_AUTH_SOCK: sockets['ssh-agent'] as string } },
    );
    const lines = String(result.outcome.content).trim().split('\n');
    expect(lines).toHaveLength(Object.keys(targets).length);
    for (const line of lines) expect(line).not.toMatch(/: connected$/);
    for (const name of Object.keys(sockets)) expect(lines).toContain(`${name}: EACCES`);
    // The files themselves are readable where they live: only connecting is refused.
    const listed = await runExecutorDetailed(
      shellExec,
      { command: `ls -l ${sockets.X11} ${sockets['ssh-agent']}` },
      { cwd: work, sandbox, parentEnv: env },
    );
    expect(String(listed.outcome.content)).toMatch(/^s/m);
  });
});
