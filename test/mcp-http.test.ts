import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { runCliAsync } from './helpers/run-cli-async.js';

/** Seconds of the 50-client load run (CI keeps it short; the closing note's figures use 20). */
const LOAD_SECONDS = Number(process.env.SCRATCHPAD_HTTP_LOAD_SECONDS ?? 5);
const TOKEN = 'test-token-0123456789abcdef';

let cli: string;
let home: string;
let server: ChildProcess;
let url: string;

/** Starts `scratchpad mcp --http` on a free loopback port; resolves with its URL. */
function startServer(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, XDG_DATA_HOME: home, SCRATCHPAD_TOKEN: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) resolve({ child, url: match[1] as string });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

beforeAll(async () => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-http-'));
  writeFileSync(join(home, 'token'), `${TOKEN}\n`, { mode: 0o600 });
  ({ child: server, url } = await startServer([
    '--db',
    join(home, 'http.db'),
    '--session',
    'web',
    'mcp',
    '--http',
    '127.0.0.1:0',
    '--token-file',
    join(home, 'token'),
    '--max-request-bytes',
    '200000',
  ]));
}, 120_000);

afterAll(() => {
  server?.kill();
  rmSync(home, { recursive: true, force: true });
});

/** A raw HTTP request (node:http lets a test set Host and Origin as an attacker would). */
function raw(
  method: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: target.hostname, port: target.port, path: target.pathname, method, headers },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'scratchpad_write', arguments: { name: 'pwned', content: 'x' } },
});
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const AUTH = { authorization: `Bearer ${TOKEN}` };

async function connect(): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return client;
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ text: string }>).map((part) => part.text).join('');
}

describe('scratchpad mcp --http', () => {
  it('refuses to start on a non-loopback address without a token', async () => {
    const run = await runCliAsync(cli, ['--store', 'memory:', 'mcp', '--http', '0.0.0.0:0'], {
      env: { PATH: process.env.PATH ?? '', HOME: home },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Refusing to serve on 0.0.0.0 without a token');
    expect(run.stderr).toContain('--token-file FILE or SCRATCHPAD_TOKEN');
  });

  it('on a wildcard bind prints a URL a client can connect to (loopback first), not http://0.0.0.0', async () => {
    const wide = await startServer([
      '--store',
      'memory:',
      'mcp',
      '--http',
      '0.0.0.0:0',
      '--token-file',
      join(home, 'token'),
    ]);
    try {
      expect(wide.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'wildcard-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(wide.url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      wide.child.kill();
    }
  });

  it('answers 401 without the right token, 403 for a foreign Host or Origin, also on loopback', async () => {
    const missing = await raw('POST', JSON_HEADERS, CALL);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toContain('Bearer');
    expect(
      (await raw('POST', { ...JSON_HEADERS, authorization: 'Bearer wrong-token-0123456789' }, CALL)).status,
    ).toBe(401);
    const host = await raw('POST', { ...JSON_HEADERS, ...AUTH, host: 'evil.example' }, CALL);
    expect(host.status).toBe(403);
    expect(host.body).toContain('not an allowed host');
    const origin = await raw('POST', { ...JSON_HEADERS, ...AUTH, origin: 'http://evil.example' }, CALL);
    expect(origin.status).toBe(403);
    // The DNS-rebinding shape of the report: both foreign, no token.
    expect(
      (await raw('POST', { ...JSON_HEADERS, host: 'evil.example', origin: 'http://evil.example' }, CALL))
        .status,
    ).toBe(403);
    expect(
      (await raw('POST', { ...JSON_HEADERS, ...AUTH, origin: `http://localhost:5173` }, CALL)).status,
    ).toBe(400);
  });

  it('needs initialize first, checks method, content type and body size', async () => {
    const uninitialized = await raw('POST', { ...JSON_HEADERS, ...AUTH }, CALL);
    expect(uninitialized.status).toBe(400);
    expect(uninitialized.body).toContain('send an initialize request first');
    expect((await raw('PUT', { ...JSON_HEADERS, ...AUTH }, CALL)).status).toBe(405);
    expect((await raw('POST', { ...JSON_HEADERS, ...AUTH, 'content-type': 'text/plain' }, CALL)).status).toBe(
      415,
    );
    const large = await raw(
      'POST',
      { ...JSON_HEADERS, ...AUTH },
      JSON.stringify({ padding: 'x'.repeat(300_000) }),
    );
    expect(large.status).toBe(413);
    expect(JSON.parse(large.body)).toMatchObject({
      error: { message: expect.stringContaining("over this server's limit of 200 KB (200,000 bytes)") },
    });
    const notFound = await raw('GET', { ...AUTH }, '');
    expect(notFound.status).toBe(400);
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('scratchpad_write');
    await client.close();
  });

  it(
    `serves 50 concurrent clients for ${LOAD_SECONDS} s: no errors, nothing lost`,
    async () => {
      const clients = await Promise.all(Array.from({ length: 50 }, () => connect()));
      const latencies: number[] = [];
      let errors = 0;
      let writes = 0;
      const stopAt = Date.now() + LOAD_SECONDS * 1000;
      await Promise.all(
        clients.map(async (client, index) => {
          for (let round = 0; Date.now() < stopAt; round++) {
            const name = `c${index}-${round}`;
            const value = `value of ${name} ${'z'.repeat(round % 200)}`;
            let started = performance.now();
            const written = await client.callTool({
              name: 'scratchpad_write',
              arguments: { name, content: value },
            });
            latencies.push(performance.now() - started);
            if (written.isError) errors++;
            else writes++;
            started = performance.now();
            const read = await client.callTool({ name: 'scratchpad_read', arguments: { name } });
            latencies.push(performance.now() - started);
            if (read.isError || !text(read).includes(value)) errors++;
          }
        }),
      );
      let listed = 0;
      let cursor: string | undefined;
      do {
        const page = await clients[0]?.listResources(cursor ? { cursor } : {});
        listed += page?.resources.filter((resource) => /^c\d+-\d+$/.test(resource.name)).length ?? 0;
        cursor = page?.nextCursor;
      } while (cursor);
      await Promise.all(clients.map((client) => client.close()));
      latencies.sort((a, b) => a - b);
      const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
      const perSecond = latencies.length / LOAD_SECONDS;
      console.log(
        `mcp --http load: 50 clients, ${LOAD_SECONDS} s, ${latencies.length} requests, ${perSecond.toFixed(0)} requests/s, p50 ${latencies[Math.floor(latencies.length / 2)]?.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ${errors} errors`,
      );
      expect(errors).toBe(0);
      expect(writes).toBeGreaterThan(50);
      expect(listed).toBe(writes);
    },
    60_000 + LOAD_SECONDS * 2000,
  );
});
