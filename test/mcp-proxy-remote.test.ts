import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../scripts/lib/spawn-server.mjs';
import { builtCli } from './helpers/built-cli.js';
import { connectStdio, toolText } from './helpers/cli-client.js';
import { LOG, startRemote } from './helpers/remote-upstream.js';
import { runCliAsync } from './helpers/run-cli-async.js';

const TOKEN = 'remote-token-0123456789abcdef';

let cli: string;
let home: string;
let tokenFile: string;

beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-remote-proxy-'));
  tokenFile = join(home, 'upstream-token');
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function proxyArgs(database: string, ...upstream: string[]): string[] {
  return [
    cli,
    '--db',
    join(home, database),
    '--session',
    'remote',
    'proxy',
    '--threshold',
    '2000',
    ...upstream,
  ];
}

describe('scratchpad proxy --url: a remote upstream', () => {
  it('fronts a Streamable HTTP server behind a bearer token: its tools, offloaded results read back whole', async () => {
    const remote = await startRemote('streamable', TOKEN);
    const { client } = await connectStdio(
      proxyArgs('streamable.db', '--url', remote.url, '--upstream-token-file', tokenFile),
      {
        ...process.env,
        XDG_DATA_HOME: home,
      },
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['remote_logs', 'remote_ping', 'scratchpad_read']));
      expect(toolText(await client.callTool({ name: 'remote_ping', arguments: {} }))).toBe('remote pong');
      const logs = toolText(await client.callTool({ name: 'remote_logs', arguments: { shard: '7' } }));
      expect(logs.length).toBeLessThan(LOG.length);
      const name = /\b(remote_logs_\d+)\b/.exec(logs)?.[1];
      expect(name).toBeDefined();
      const offset = LOG.indexOf('ERROR');
      const read = await client.callTool({
        name: 'scratchpad_read',
        arguments: { name, offset, limit: 200 },
      });
      expect(toolText(read)).toContain(LOG.slice(offset, offset + 200));
      expect(remote.authorizations.every((value) => value === `Bearer ${TOKEN}`)).toBe(true);
    } finally {
      await client.close();
      await remote.close();
    }
  }, 60_000);

  it('says the upstream wants authorization, and how to give it, when the token is missing', async () => {
    const remote = await startRemote('streamable', TOKEN);
    try {
      const run = await runCliAsync(cli, proxyArgs('unauthorized.db', '--url', remote.url).slice(1), {
        env: { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: home },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Cannot connect to the upstream MCP server "${remote.url}"`);
      expect(run.stderr).toContain('does not run an OAuth flow');
      expect(run.stderr).toContain("--header 'Authorization: Bearer TOKEN' or --upstream-token-file FILE");
    } finally {
      await remote.close();
    }
  }, 60_000);

  it('falls back to HTTP+SSE for a server that only speaks it, and sends --header on both', async () => {
    const remote = await startRemote('sse', TOKEN);
    const { client } = await connectStdio(
      proxyArgs('sse.db', '--url', remote.url, '--header', `Authorization: Bearer ${TOKEN}`),
      { ...process.env, XDG_DATA_HOME: home },
    );
    try {
      expect(toolText(await client.callTool({ name: 'remote_ping', arguments: {} }))).toBe('remote pong');
      expect(remote.authorizations.every((value) => value === `Bearer ${TOKEN}`)).toBe(true);
    } finally {
      await client.close();
      await remote.close();
    }
  }, 60_000);

  it('reconnects after the remote server restarts: the call it cut short says so, the next one works', async () => {
    let remote = await startRemote('streamable', undefined);
    const port = Number(new URL(remote.url).port);
    const { client } = await connectStdio(proxyArgs('restart.db', '--url', remote.url), {
      ...process.env,
      XDG_DATA_HOME: home,
    });
    try {
      expect(toolText(await client.callTool({ name: 'remote_ping', arguments: {} }))).toBe('remote pong');
      await remote.close();
      remote = await startRemote('streamable', undefined, port);
      const cut = await client.callTool({ name: 'remote_ping', arguments: {} });
      expect(cut.isError).toBe(true);
      expect(toolText(cut)).toMatch(/UPSTREAM_UNAVAILABLE|reconnected on the next call/);
      let answer = '';
      for (let attempt = 0; attempt < 20 && answer !== 'remote pong'; attempt++) {
        const next = await client.callTool({ name: 'remote_ping', arguments: {} });
        answer = toolText(next);
        if (answer !== 'remote pong') await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(answer).toBe('remote pong');
    } finally {
      await client.close();
      await remote.close();
    }
  }, 60_000);

  it('refuses a command and --url together, and --header without --url', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: home };
    const both = await runCliAsync(
      cli,
      ['--store', 'memory:', 'proxy', '--url', 'http://127.0.0.1:1/mcp', '--', 'node'],
      { env },
    );
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('either as --url or as a command, not both');
    const header = await runCliAsync(cli, ['--store', 'memory:', 'proxy', '--header', 'A: b', '--', 'node'], {
      env,
    });
    expect(header.stderr).toContain('--header and --upstream-token-file apply to --url only');
    const neither = await runCliAsync(cli, ['--store', 'memory:', 'proxy'], { env });
    expect(neither.stderr).toContain('a command after --, or --url URL');
  }, 60_000);
});

describe('scratchpad proxy --http: the proxy served over Streamable HTTP', () => {
  it('serves two clients at once with their own MCP sessions over one upstream, and the guards of mcp --http', async () => {
    const upstream = fileURLToPath(new URL('./fixtures/upstream-server.mjs', import.meta.url));
    const { child, url: served } = spawnServer(
      [
        cli,
        '--db',
        join(home, 'served.db'),
        'proxy',
        '--http',
        '127.0.0.1:0',
        '--',
        process.execPath,
        upstream,
      ],
      { name: 'proxy', env: { ...process.env, XDG_DATA_HOME: home, SCRATCHPAD_TOKEN: '' } },
    );
    try {
      const url = await served;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const clients = await Promise.all(
        [1, 2].map(async (index) => {
          const client = new Client({ name: `http-client-${index}`, version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(new URL(url)));
          return client;
        }),
      );
      for (const client of clients) {
        expect(toolText(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('scratchpad_read');
      }
      await clients[0]?.close();
      expect(toolText(await (clients[1] as Client).callTool({ name: 'ping', arguments: {} }))).toBe('pong');
      await clients[1]?.close();
      const foreign = await fetch(url, {
        method: 'POST',
        headers: {
          origin: 'http://evil.example',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{}',
      });
      expect(foreign.status).toBe(403);
    } finally {
      child.kill();
    }
  }, 60_000);
});
