import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from './executor.js';
import { loadCatalog } from './load-catalog.js';
import { type RunExecutorOptions, runExecutor } from './run-executor.js';
import { ensureShippedExecutors } from './shipped-executors.js';

let root: string;
let work: string;
const executors = new Map<string, Executor>();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'scratchpad-shipped-run-'));
  work = join(root, 'work');
  await mkdir(work);
  const installed = await ensureShippedExecutors({ dataDir: join(root, 'data'), keyDir: join(root, 'keys') });
  const catalog = await loadCatalog({ dirs: [installed.executorsDir], trustedKeys: installed.trustedKeys });
  for (const executor of catalog.executors) executors.set(executor.name, executor);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function run(name: string, args: Record<string, unknown>, options: RunExecutorOptions = {}) {
  const executor = executors.get(name);
  if (!executor) throw new Error(`${name} not loaded`);
  return runExecutor(executor, args, { cwd: work, ...options });
}

describe('fs_read', () => {
  it('reads a UTF-8 file with its metadata', async () => {
    const path = join(work, 'notes.md');
    await writeFile(path, 'first line\nseconda riga è qui\n');
    expect(await run('fs_read', { path })).toEqual({
      ok: true,
      content: 'first line\nseconda riga è qui\n',
      metadata: { path, bytes: 31, bytes_read: 31, truncated: false, encoding: 'utf-8', kind: 'text' },
    });
  });

  it('resolves relative paths against the working directory and ~/ against HOME', async () => {
    await writeFile(join(work, 'relative.txt'), 'relative');
    expect((await run('fs_read', { path: 'relative.txt' })).content).toBe('relative');
    const fakeHome = join(root, 'home');
    await mkdir(fakeHome, { recursive: true });
    await writeFile(join(fakeHome, 'diary.md'), 'dear diary');
    const outcome = await run(
      'fs_read',
      { path: '~/diary.md' },
      { parentEnv: { ...process.env, HOME: fakeHome } },
    );
    expect(outcome.content).toBe('dear diary');
    expect(outcome.metadata?.path).toBe(join(fakeHome, 'diary.md'));
  });

  it('returns binary content as base64 with kind binary, on request and when the bytes are not UTF-8', async () => {
    const path = join(work, 'image.bin');
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe]);
    await writeFile(path, bytes);
    const automatic = await run('fs_read', { path });
    expect(automatic.content).toBe(bytes.toString('base64'));
    expect(automatic.metadata).toMatchObject({ kind: 'binary', encoding: 'base64', bytes: 7 });
    expect(automatic.metadata?.note).toMatch(/not UTF-8/);
    const text = join(work, 'plain.txt');
    await writeFile(text, 'plain');
    const requested = await run('fs_read', { path: text, encoding: 'binary' });
    expect(requested.content).toBe(Buffer.from('plain').toString('base64'));
    expect(requested.metadata).toMatchObject({ kind: 'binary', encoding: 'base64' });
  });

  it('cuts at max_bytes without splitting a character, and reads the end with tail_bytes', async () => {
    const path = join(work, 'accents.txt');
    await writeFile(path, 'aèèè');
    const head = await run('fs_read', { path, max_bytes: 4 });
    expect(head.content).toBe('aè');
    // bytes_read counts the bytes kept (whole characters), so start + bytes_read is where to read on.
    expect(head.metadata).toMatchObject({ truncated: true, bytes: 7, bytes_read: 3, kind: 'text' });
    const rest = await run('fs_read', { path, offset: 3 });
    expect(rest.content).toBe('èè');
    expect(rest.metadata).toMatchObject({ truncated: true, start: 3, bytes_read: 4 });
    const tail = await run('fs_read', { path, tail_bytes: 3 });
    expect(tail.content).toBe('è');
    expect(tail.metadata).toMatchObject({ truncated: true, start: 4, kind: 'text' });
  });

  it('explains a missing file, a directory and a bad argument', async () => {
    const missing = await run('fs_read', { path: join(work, 'nope.txt') });
    expect(missing).toEqual({ ok: false, error: `no such file or directory: ${join(work, 'nope.txt')}` });
    expect((await run('fs_read', { path: work })).error).toMatch(/is a directory: use fs_list/);
    expect((await run('fs_read', { path: join(work, 'notes.md'), max_bytes: 0 })).error).toMatch(/max_bytes/);
    expect((await run('fs_read', {})).error).toMatch(/"path" is required/);
  });
});

describe('fs_write', () => {
  it('creates parent folders, writes, then appends, and says what it did', async () => {
    const path = join(work, 'out', 'deep', 'result.txt');
    const written = await run('fs_write', { path, content: 'hello' });
    expect(written).toEqual({
      ok: true,
      content: `wrote 5 bytes to ${path}`,
      metadata: { path, bytes_written: 5, size: 5, append: false, created: true },
    });
    const appended = await run('fs_write', { path, content: ' world', append: true });
    expect(appended.content).toBe(`appended 6 bytes to ${path} (file is now 11 bytes)`);
    expect(appended.metadata).toMatchObject({ created: false, size: 11, bytes_written: 6 });
    expect(await readFile(path, 'utf8')).toBe('hello world');
    await run('fs_write', { path, content: 'replaced' });
    expect(await readFile(path, 'utf8')).toBe('replaced');
  });

  it('decodes base64 content and writes a piped object as JSON', async () => {
    const binary = join(work, 'copy.bin');
    await run('fs_write', {
      path: binary,
      content: Buffer.from([0, 1, 2, 255]).toString('base64'),
      encoding: 'base64',
    });
    expect([...(await readFile(binary))]).toEqual([0, 1, 2, 255]);
    const json = join(work, 'object.json');
    await run('fs_write', { path: json, content: { a: 1 } });
    expect(JSON.parse(await readFile(json, 'utf8'))).toEqual({ a: 1 });
  });

  it('refuses a directory as target and a missing content', async () => {
    expect((await run('fs_write', { path: work, content: 'x' })).error).toMatch(/is a directory/);
    expect((await run('fs_write', { path: join(work, 'x.txt') })).error).toMatch(/"content" is required/);
  });
});

describe('fs_list', () => {
  it('lists a folder, recursively on request, hiding dot entries unless asked, within the limit', async () => {
    const tree = join(work, 'tree');
    await mkdir(join(tree, 'sub', 'inner'), { recursive: true });
    await mkdir(join(tree, 'node_modules', 'pkg'), { recursive: true });
    await writeFile(join(tree, 'a.txt'), 'aaa');
    await writeFile(join(tree, '.secret'), 's');
    await writeFile(join(tree, 'sub', 'b.txt'), 'bb');
    await writeFile(join(tree, 'sub', 'inner', 'c.txt'), 'c');
    await writeFile(join(tree, 'node_modules', 'pkg', 'index.js'), '');

    const flat = await run('fs_list', { path: tree });
    expect(flat).toEqual({
      ok: true,
      content: 'a.txt\t3\nnode_modules/\nsub/',
      metadata: { path: tree, count: 3, files: 1, directories: 2, truncated: false },
    });
    const deep = await run('fs_list', { path: tree, recursive: true });
    expect(deep.content).toBe('a.txt\t3\nnode_modules/\nsub/\nsub/b.txt\t2\nsub/inner/\nsub/inner/c.txt\t1');
    const hidden = await run('fs_list', { path: tree, include_hidden: true });
    expect(hidden.content).toBe('.secret\t1\na.txt\t3\nnode_modules/\nsub/');
    const limited = await run('fs_list', { path: tree, recursive: true, limit: 2 });
    expect(limited.content).toBe('a.txt\t3\nnode_modules/');
    expect(limited.metadata).toMatchObject({ count: 2, truncated: true });
  });

  it('defaults to the working directory and explains a file or a missing path', async () => {
    await mkdir(join(work, 'listing'), { recursive: true });
    expect((await run('fs_list', {}, { cwd: join(work, 'listing') })).content).toBe('(empty directory)');
    await writeFile(join(work, 'file.txt'), 'x');
    expect((await run('fs_list', { path: join(work, 'file.txt') })).error).toMatch(
      /is not a directory: use fs_read/,
    );
    expect((await run('fs_list', { path: join(work, 'missing') })).error).toMatch(
      /^no such file or directory/,
    );
  });
});

describe('web_fetch', () => {
  let server: Server;
  let base: string;
  /** Requests the fixture server received, by path and authorization header. */
  const received: Array<{ path: string; authorization: string | undefined }> = [];
  /** web_fetch as the user allowed it to reach this machine (`[runtime.sandbox] local_network`). */
  const fetchLocal = (args: Record<string, unknown>) =>
    run('web_fetch', args, { localNetwork: ['web_fetch'] });

  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      received.push({ path: url.pathname, authorization: request.headers.authorization });
      if (url.pathname === '/json') {
        response.writeHead(200, {
          'content-type': 'application/json',
          etag: '"v1"',
          'x-internal': 'dropped',
        });
        response.end(JSON.stringify({ uuid: '7c089d54-0000', accept: request.headers.accept ?? null }));
      } else if (url.pathname === '/missing') {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('nothing here');
      } else if (url.pathname === '/redirect') {
        response.writeHead(302, { location: '/json' });
        response.end();
      } else if (url.pathname === '/to-loopback') {
        response.writeHead(302, {
          location: `http://localhost:${(server.address() as AddressInfo).port}/json`,
        });
        response.end();
      } else if (url.pathname === '/to-other-origin') {
        response.writeHead(307, { location: url.searchParams.get('to') ?? '/' });
        response.end();
      } else if (url.pathname === '/binary') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
      } else if (url.pathname === '/big') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('é'.repeat(50_000));
      } else if (url.pathname === '/latin1') {
        response.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
        response.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      } else if (url.pathname === '/slow') {
        setTimeout(() => response.end('late'), 5_000);
      } else {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<h1>home</h1>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches a JSON body with status and a subset of the headers, sending the given headers', async () => {
    const outcome = await fetchLocal({ url: `${base}/json`, headers: { Accept: 'application/json' } });
    expect(outcome.ok).toBe(true);
    expect(JSON.parse(outcome.content as string)).toEqual({
      uuid: '7c089d54-0000',
      accept: 'application/json',
    });
    expect(outcome.metadata).toMatchObject({
      url: `${base}/json`,
      final_url: `${base}/json`,
      status: 200,
      status_text: 'OK',
      kind: 'text',
      encoding: 'utf-8',
      truncated: false,
    });
    expect(outcome.metadata?.headers).toEqual({ 'content-type': 'application/json', etag: '"v1"' });
  });

  it('follows redirects, reports HTTP errors as ok false with the body, and returns binary as base64', async () => {
    const redirected = await fetchLocal({ url: `${base}/redirect` });
    expect(redirected.metadata?.final_url).toBe(`${base}/json`);
    const missing = await fetchLocal({ url: `${base}/missing` });
    expect(missing).toMatchObject({ ok: false, error: 'HTTP 404 Not Found', content: 'nothing here' });
    const binary = await fetchLocal({ url: `${base}/binary` });
    expect(binary.content).toBe(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]).toString('base64'));
    expect(binary.metadata).toMatchObject({ kind: 'binary', encoding: 'base64', bytes: 7 });
  });

  it('cuts the body at max_bytes on a character boundary, decodes declared charsets, and supports HEAD', async () => {
    const big = await fetchLocal({ url: `${base}/big`, max_bytes: 101 });
    expect(big.content).toBe('é'.repeat(50));
    // bytes counts what was kept (whole characters): a range read goes on from there.
    expect(big.metadata).toMatchObject({ truncated: true, bytes: 100, kind: 'text' });
    expect((await fetchLocal({ url: `${base}/latin1` })).content).toBe('café');
    const head = await fetchLocal({ url: `${base}/json`, method: 'HEAD' });
    expect(head).toMatchObject({ ok: true, content: '', metadata: { status: 200, bytes: 0 } });
  });

  it('refuses non-HTTP URLs and reports unreachable hosts and timeouts', async () => {
    expect((await fetchLocal({ url: 'file:///etc/hostname' })).error).toMatch(
      /only http:\/\/ and https:\/\//,
    );
    expect((await fetchLocal({ url: 'not a url' })).error).toMatch(/not a valid absolute URL/);
    const unused = createServer();
    await new Promise<void>((resolve) => unused.listen(0, '127.0.0.1', resolve));
    const closedPort = (unused.address() as AddressInfo).port;
    await new Promise((resolve) => unused.close(resolve));
    const closed = await fetchLocal({ url: `http://127.0.0.1:${closedPort}/` });
    expect(closed.error).toBe(`request to http://127.0.0.1:${closedPort}/ failed: ECONNREFUSED`);
    const slow = await fetchLocal({ url: `${base}/slow`, timeout_seconds: 1 });
    expect(slow.error).toMatch(/no response from .* within 1 s/);
  });

  it("does not connect to this machine's own addresses unless allowed, however they are spelled", async () => {
    const port = (server.address() as AddressInfo).port;
    received.length = 0;
    const spellings = [
      `http://127.0.0.1:${port}/json`,
      `http://localhost:${port}/json`,
      `http://127.9.9.9:${port}/json`,
      `http://2130706433:${port}/json`,
      `http://0x7f.1:${port}/json`,
      `http://0.0.0.0:${port}/json`,
      `http://[::1]:${port}/json`,
      `http://[::ffff:127.0.0.1]:${port}/json`,
      `http://[::]:${port}/json`,
      'http://169.254.169.254/latest/meta-data/',
    ];
    for (const url of spellings) {
      const outcome = await run('web_fetch', { url });
      expect(outcome.ok, url).toBe(false);
      expect(outcome.error, url).toMatch(
        /does not connect to this machine's own addresses: .* is (loopback|link-local)/,
      );
      expect(outcome.error, url).toContain('local_network = ["web_fetch"]');
    }
    expect(received).toEqual([]);
  });

  // A non-loopback address of this machine stands for a host on the network (none on a machine without one).
  const outside = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

  it.skipIf(outside === undefined)(
    'refuses a redirect to loopback, and keeps credentials with their origin',
    async () => {
      const port = (server.address() as AddressInfo).port;
      received.length = 0;
      const bounced = await run('web_fetch', { url: `http://${outside}:${port}/to-loopback` });
      expect(bounced.error).toMatch(/localhost \(127\.0\.0\.1\) is loopback/);
      expect(received.map((request) => request.path)).toEqual(['/to-loopback']);
      // Another origin (same host, another port) gets the request without the Authorization header.
      const other = createServer((request, response) => {
        received.push({ path: `other${request.url}`, authorization: request.headers.authorization });
        response.end('other');
      });
      await new Promise<void>((resolve) => other.listen(0, '0.0.0.0', resolve));
      try {
        received.length = 0;
        const to = `http://${outside}:${(other.address() as AddressInfo).port}/landing`;
        const moved = await run('web_fetch', {
          url: `http://${outside}:${port}/to-other-origin?to=${encodeURIComponent(to)}`,
          headers: { Authorization: 'Bearer secret-token' },
        });
        expect(moved).toMatchObject({ ok: true, content: 'other', metadata: { final_url: to } });
        expect(received).toEqual([
          { path: '/to-other-origin', authorization: 'Bearer secret-token' },
          { path: 'other/landing', authorization: undefined },
        ]);
      } finally {
        other.closeAllConnections();
        await new Promise((resolve) => other.close(resolve));
      }
    },
  );
});

describe('shell_exec', () => {
  it('returns stdout as content with the exit code', async () => {
    const outcome = await run('shell_exec', { command: 'echo hello && echo oops >&2' });
    expect(outcome).toMatchObject({
      ok: true,
      content: 'hello\n',
      metadata: {
        exit_code: 0,
        signal: null,
        timed_out: false,
        stderr: 'oops\n',
        stdout_bytes: 6,
        cwd: work,
      },
    });
  });

  it('reports a failing command with its exit code and stderr, and runs in cwd', async () => {
    const failed = await run('shell_exec', { command: 'echo partial; echo broken >&2; exit 3' });
    expect(failed).toMatchObject({
      ok: false,
      error: 'command failed (exit code 3); stderr: broken',
      content: 'partial\n',
    });
    await mkdir(join(work, 'elsewhere'), { recursive: true });
    expect((await run('shell_exec', { command: 'pwd', cwd: join(work, 'elsewhere') })).content).toBe(
      `${join(work, 'elsewhere')}\n`,
    );
    expect((await run('shell_exec', { command: 'true', cwd: join(work, 'absent') })).ok).toBe(false);
  });

  it('kills the command at its timeout and does not wait for background jobs', async () => {
    const timedOut = await run('shell_exec', { command: 'echo started; sleep 30', timeout_seconds: 1 });
    expect(timedOut).toMatchObject({ ok: false, error: 'timed out after 1 s', content: 'started\n' });
    expect(timedOut.metadata?.timed_out).toBe(true);
    const started = Date.now();
    const background = await run('shell_exec', { command: 'sleep 30 & echo detached' });
    expect(background).toMatchObject({ ok: true, content: 'detached\n' });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('does not see secrets from the parent environment', async () => {
    process.env.SCRATCHPAD_TEST_SHELL_SECRET = 'shh-secret-value';
    try {
      const outcome = await run('shell_exec', { command: 'env' });
      expect(outcome.ok).toBe(true);
      expect(outcome.content).not.toContain('shh-secret-value');
      expect(outcome.content).toContain('PATH=');
    } finally {
      delete process.env.SCRATCHPAD_TEST_SHELL_SECRET;
    }
  });
});
