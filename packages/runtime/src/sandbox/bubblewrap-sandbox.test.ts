import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../executors/executor.js';
import { loadCatalog } from '../executors/load-catalog.js';
import { type RunExecutorOptions, runExecutorDetailed } from '../executors/run-executor.js';
import { ensureShippedExecutors } from '../executors/shipped-executors.js';
import { defaultStagingRoot } from '../executors/stage-executor.js';
import { TEMPORARY_FOLDER, TEMPORARY_FOLDER_BYTES } from './bubblewrap-sandbox.js';
import { createSandbox } from './create-sandbox.js';
import type { Sandbox } from './sandbox.js';
import { SANDBOX_MARKER_FILE } from './sandbox-marker.js';
import { defaultSandboxSettings } from './sandbox-settings.js';

const CANARY_KEY = `sk-canary-${Math.random().toString(36).slice(2)}`;
const CANARY_SSH = `-----BEGIN CANARY ${Math.random().toString(36).slice(2)}-----`;
let root: string;
let home: string;
let work: string;
let env: Record<string, string>;
let sandbox: Sandbox;
let server: Server;
let serverUrl: string;
const executors = new Map<string, Executor>();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'scratchpad-sandbox-'));
  home = join(root, 'home');
  work = join(home, 'work');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await mkdir(join(work, '.git', 'hooks'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), CANARY_SSH);
  await writeFile(join(home, '.bashrc'), 'export PS1=canary\n');
  env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
  };
  const installed = await ensureShippedExecutors({ env });
  const catalog = await loadCatalog({ dirs: [installed.executorsDir], trustedKeys: installed.trustedKeys });
  for (const executor of catalog.executors) executors.set(executor.name, executor);
  sandbox = await createSandbox({
    settings: defaultSandboxSettings(),
    cwd: work,
    env,
    // Nested on purpose: the executors folder is inside the data folder, as in a real installation.
    scratchpadPaths: [
      join(home, '.config', 'scratchpad'),
      join(home, '.local', 'share', 'scratchpad'),
      installed.executorsDir,
    ],
  });
  server = createServer((_request, response) => response.end('reached'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // The runner must keep this out of every executor, and the sandbox out of reach through /proc.
  process.env.SANDBOX_TEST_API_KEY = CANARY_KEY;
}, 60_000);

afterAll(async () => {
  delete process.env.SANDBOX_TEST_API_KEY;
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

async function run(name: string, args: Record<string, unknown>, options: RunExecutorOptions = {}) {
  const executor = executors.get(name);
  if (!executor) throw new Error(`${name} not loaded`);
  return runExecutorDetailed(executor, args, { cwd: work, sandbox, parentEnv: env, ...options });
}

async function shell(command: string) {
  const result = await run('shell_exec', { command });
  return `${result.outcome.content ?? ''}\n${JSON.stringify(result.outcome.metadata ?? {})}\n${result.outcome.error ?? ''}`;
}

describe('bubblewrap sandbox (real bwrap)', () => {
  it('is the bubblewrap backend and records it on every run', async () => {
    expect(sandbox.status).toBe('bubblewrap');
    const result = await run('fs_list', { path: '.' });
    expect(result.outcome.ok).toBe(true);
    expect(result.sandbox).toBe('bubblewrap');
    expect(result.network).toBe(false);
  });

  it('hides protected locations: an empty ~/.ssh, no signing key, no store or logs', async () => {
    expect((await run('fs_read', { path: '~/.ssh/id_rsa' })).outcome.ok).toBe(false);
    expect((await run('fs_list', { path: '~/.ssh', include_hidden: true })).outcome.content).toBe(
      '(empty directory)',
    );
    const key = join(home, '.config', 'scratchpad', 'keys', 'executor-signing.key');
    expect(existsSync(key)).toBe(true);
    expect((await run('fs_read', { path: key })).outcome.ok).toBe(false);
    const output = await shell('cat ~/.ssh/* ; ls -laR ~/.config ~/.local; grep -r BEGIN ~ 2>/dev/null');
    expect(output).not.toContain(CANARY_SSH);
    expect(output).not.toContain('PRIVATE KEY');
  });

  it('shows only its own processes, with scrubbed environments, in its own /proc', async () => {
    const output = await shell('ls /proc | grep -c "^[0-9]"; cat /proc/*/environ | tr "\\0" "\\n"');
    expect(output).not.toContain(CANARY_KEY);
    const count = Number(output.split('\n')[0]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(10);
    expect(await shell('cat /proc/1/cmdline | tr "\\0" " "')).toMatch(/^\S*bwrap .* \/run\/scratchpad /);
  });

  it('writes only in the write roots and its temporary folder; the home, start-up files and git hooks stay read-only', async () => {
    const output = await shell(
      'echo x > ~/.bashrc; echo x > ~/new-file; echo x > .git/hooks/pre-commit; rm -rf ~/.ssh; ' +
        'echo ok > written.txt && echo ok > "$TMPDIR/private.txt" && cat "$TMPDIR/private.txt" && echo "$TMPDIR"',
    );
    expect(output).toMatch(/Read-only file system/);
    expect(await readFile(join(home, '.bashrc'), 'utf8')).toBe('export PS1=canary\n');
    expect(existsSync(join(home, 'new-file'))).toBe(false);
    expect(existsSync(join(work, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(await readFile(join(home, '.ssh', 'id_rsa'), 'utf8')).toBe(CANARY_SSH);
    expect(await readFile(join(work, 'written.txt'), 'utf8')).toBe('ok\n');
    expect(output.startsWith(`ok\n${TEMPORARY_FOLDER}\n`)).toBe(true);
    expect(await shell('ls -A "$TMPDIR"')).toMatch(/^\n/);
  });

  it('reads host files in /tmp, where users keep them (issue 26)', async () => {
    const file = join(root, 'big_log.txt');
    await writeFile(file, 'ERROR disk full\nINFO fine\n');
    const read = await run('fs_read', { path: file });
    expect(read.outcome.ok).toBe(true);
    expect(String(read.outcome.content)).toContain('ERROR disk full');
  });

  it('refuses a write outside the write roots with WRITE_REFUSED naming the roots and how to add one; nothing is lost', async () => {
    const target = join(root, 'out.txt');
    const written = await run('fs_write', { path: target, content: 'hello world' });
    expect(written.outcome.ok).toBe(false);
    expect(written.outcome.error).toMatch(/^WRITE_REFUSED: read-only file system/);
    expect(written.outcome.error).toContain(`write roots (${work})`);
    expect(written.outcome.error).toContain('--write-root PATH');
    expect(written.outcome.error).toContain('write_roots');
    expect(written.outcome.metadata).toMatchObject({ error_code: 'WRITE_REFUSED', write_roots: [work] });
    expect(existsSync(target)).toBe(false);
    const shelled = await run('shell_exec', { command: `echo hi > ${target}` });
    expect(shelled.outcome.error).toMatch(/^WRITE_REFUSED: .*Read-only file system/s);
    expect(existsSync(target)).toBe(false);
  });

  it('caps /dev/shm and the temporary folder like the old private /tmp, and keeps /dev read-only', async () => {
    const output = await shell('df -B1 --output=size /dev/shm "$TMPDIR" | tail -n 2; echo x > /dev/new-file');
    const sizes = output.split('\n').slice(0, 2).map(Number);
    expect(sizes).toEqual([TEMPORARY_FOLDER_BYTES, TEMPORARY_FOLDER_BYTES]);
    expect(output).toMatch(/Read-only file system/);
  });

  it('reaches the network only when the manifest declares it', async () => {
    const probe = `node -e "fetch('${serverUrl}').then(async (r) => console.log(await r.text()), (e) => console.log('failed', e.cause?.code))"`;
    expect(await shell(probe)).toMatch(/^failed/);
    const fetched = await run('web_fetch', { url: serverUrl }, { localNetwork: ['web_fetch'] });
    expect(fetched.network).toBe(true);
    expect(fetched.outcome.content).toBe('reached');
    // The server is on this machine's loopback: without the user's grant web_fetch does not connect to it.
    const refused = await run('web_fetch', { url: serverUrl });
    expect(refused.outcome.error).toMatch(/does not connect to this machine's own addresses/);
  });

  it('marks itself so that the CLI can refuse to sign inside', async () => {
    expect(
      await shell(`cat ${SANDBOX_MARKER_FILE}; rm -f ${SANDBOX_MARKER_FILE}; echo $SCRATCHPAD_SANDBOX`),
    ).toMatch(/^bubblewrap\nbubblewrap\n/);
  });

  it('kills everything the call started when it times out', async () => {
    const tag = `${Math.floor(Math.random() * 1000)}.1337`;
    const result = await run('shell_exec', { command: `sleep ${tag} & sleep ${tag}` }, { timeoutMs: 1_500 });
    expect(result.timedOut).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const survivors = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(tag);
        } catch {
          return false;
        }
      });
    expect(survivors).toEqual([]);
  });

  it('refuses code changed after verification, and never runs the old code in its place', async () => {
    const executor = executors.get('fs_list') as Executor;
    const file = join(executor.dir, 'index.mjs');
    const original = await readFile(file);
    await writeFile(file, 'console.log(JSON.stringify({ ok: true, content: "tampered" }))\n');
    try {
      const result = await run('fs_list', { path: '.' });
      expect(result.refused).toBe('tampered');
      expect(result.outcome.ok).toBe(false);
      expect(result.outcome.error).toMatch(/^Refused: fs_list was not run because its code changed/);
      expect(result.exitCode).toBeNull();
    } finally {
      await writeFile(file, original);
    }
  });

  it('leaves no staging folder behind', async () => {
    const staging = defaultStagingRoot();
    const before = readdirSync(staging).filter((name) => name.startsWith('scratchpad-call-')).length;
    await run('fs_list', { path: '.' });
    const after = readdirSync(staging).filter((name) => name.startsWith('scratchpad-call-')).length;
    expect(after).toBeLessThanOrEqual(before);
  });

  it('lets a sandboxed process neither regain capabilities nor unhide a location', async () => {
    const output = await shell(
      `grep CapEff /proc/self/status; umount ~/.ssh; unshare -rm true && echo NESTED; mount --bind / /mnt && echo BOUND`,
    );
    expect(output).toMatch(/CapEff:\s+0+\n/);
    expect(output).not.toContain('NESTED');
    expect(output).not.toContain('BOUND');
    expect(execFileSync('cat', [join(home, '.ssh', 'id_rsa')], { encoding: 'utf8' })).toBe(CANARY_SSH);
  });
});
