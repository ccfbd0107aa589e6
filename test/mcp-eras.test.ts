import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { MODERN, postModernRequest } from './helpers/modern-post.js';

let cli: string;
let home: string;
let http: ChildProcess;
let url: string;
/** What the HTTP server wrote to stderr so far. */
let httpStderr = '';

function serverArgs(session: string): string[] {
  return ['--db', join(home, 'eras.db'), '--session', session, 'mcp'];
}

beforeAll(async () => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-eras-'));
  http = spawn(process.execPath, [cli, ...serverArgs('web'), '--http', '127.0.0.1:0'], {
    env: { ...process.env, XDG_DATA_HOME: home, SCRATCHPAD_TOKEN: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    http.stderr?.on('data', (chunk: Buffer) => {
      httpStderr += chunk.toString();
      const match = /at (http:\/\/\S+\/mcp)/.exec(httpStderr);
      if (match) resolve(match[1] as string);
    });
    http.once('exit', (code) => reject(new Error(`server exited with ${code}: ${httpStderr}`)));
  });
}, 120_000);

afterAll(() => {
  http?.kill();
  rmSync(home, { recursive: true, force: true });
});

function stdioParams(session: string) {
  return {
    command: process.execPath,
    args: [cli, ...serverArgs(session)],
    env: { ...(process.env as Record<string, string>), XDG_DATA_HOME: home },
    stderr: 'ignore' as const,
  };
}

/** A v2 client that negotiates like Claude Code (`server/discover` first, `initialize` as the fallback). */
async function modernClient(transport: 'stdio' | 'http', session: string): Promise<ModernClient> {
  const client = new ModernClient(
    { name: 'eras-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    transport === 'http'
      ? new ModernHttpTransport(new URL(url))
      : new ModernStdioTransport(stdioParams(session)),
  );
  return client;
}

async function legacyClient(transport: 'stdio' | 'http', session: string): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'eras-test', version: '1.0.0' });
  await client.connect(
    transport === 'http'
      ? new LegacyHttpTransport(new URL(url))
      : new LegacyStdioTransport(stdioParams(session)),
  );
  return client;
}

function firstText(result: object): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? '';
}

/** One raw 2026-07-28 POST to the HTTP server. */
const modernPost = (method: string, params: Record<string, unknown> = {}) =>
  postModernRequest(url, method, params) as Promise<Record<string, unknown>>;

describe.each(['stdio', 'http'] as const)('scratchpad mcp over %s', (transport) => {
  it('a negotiating v2 client gets 2026-07-28 and every tool and resource works', async () => {
    const client = await modernClient(transport, `modern-${transport}`);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      const first = (await client.listTools()).tools.map((tool) => tool.name);
      const second = (await client.listTools()).tools.map((tool) => tool.name);
      expect(second).toEqual(first);
      expect(first).toContain('scratchpad_write');
      const written = await client.callTool({
        name: 'scratchpad_write',
        arguments: { name: 'notes', content: 'alpha\nbeta\ngamma\n' },
      });
      expect(written.isError ?? false).toBe(false);
      const session = transport === 'http' ? 'web' : `modern-${transport}`;
      const read = await client.readResource({ uri: `scratchpad://${session}/notes?lines=2:2` });
      expect(read.contents[0]).toMatchObject({ text: 'beta\n' });
      const listed = await client.listResources();
      expect(listed.resources.map((resource) => resource.name)).toContain('notes');
      const missing = await client.callTool({ name: 'scratchpad_read', arguments: { name: 'nope' } });
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a v1 client (2025-11-25) still initializes and works unchanged', async () => {
    const client = await legacyClient(transport, `legacy-${transport}`);
    try {
      const written = await client.callTool({
        name: 'scratchpad_write',
        arguments: { name: 'old', content: 'one\ntwo\n' },
      });
      expect(written.isError ?? false).toBe(false);
      const read = await client.callTool({
        name: 'scratchpad_read',
        arguments: { name: 'old', lines: '2:2' },
      });
      expect(firstText(read)).toContain('two');
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('raw 2026-07-28 exchanges over HTTP', () => {
  it('answers a server/discover probe like Claude Code sends', async () => {
    const reply = await modernPost('server/discover');
    const result = reply.result as Record<string, unknown>;
    expect(result.resultType).toBe('complete');
    expect(result.supportedVersions).toContain(MODERN);
    expect(result.ttlMs).toBe(0);
    expect(result.cacheScope).toBe('private');
    expect(result.capabilities).toMatchObject({ tools: {}, resources: {} });
  });

  it('lists the MUSTs of 2026-07-28 it meets', async () => {
    const tools = (await modernPost('tools/list')).result as Record<string, unknown>;
    const again = (await modernPost('tools/list')).result as Record<string, unknown>;
    const resources = (await modernPost('resources/list')).result as Record<string, unknown>;
    const templates = (await modernPost('resources/templates/list')).result as Record<string, unknown>;
    const call = (await modernPost('tools/call', {
      name: 'scratchpad_write',
      arguments: { name: 'probe', content: 'x\n' },
    })) as Record<string, unknown>;
    const read = (await modernPost('resources/read', { uri: 'scratchpad://web/probe' })).result as Record<
      string,
      unknown
    >;
    const missing = (await modernPost('resources/read', { uri: 'scratchpad://web/absent' })) as Record<
      string,
      unknown
    >;
    const musts: [string, boolean][] = [
      [
        'every result carries resultType',
        [tools, resources, templates, read].every((r) => r.resultType === 'complete'),
      ],
      [
        'tools/call results carry resultType',
        (call.result as Record<string, unknown>).resultType === 'complete',
      ],
      [
        'list results and resources/read carry ttlMs and cacheScope',
        [tools, resources, templates, read].every((r) => r.ttlMs === 0 && r.cacheScope === 'private'),
      ],
      [
        'tools/list order is the same on every call',
        JSON.stringify(tools.tools) === JSON.stringify(again.tools),
      ],
      [
        'a resources/read miss is -32602 (Invalid Params)',
        (missing.error as { code?: number } | undefined)?.code === -32602,
      ],
    ];
    expect(musts.filter(([, met]) => !met).map(([must]) => must)).toEqual([]);
  });

  it('refuses a request that claims 2026-07-28 without the envelope', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const reply = (await response.json()) as { error?: { code: number; message: string } };
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toContain('envelope');
  });

  it('writes one line for a flood of refused requests, not one per request', async () => {
    const refusedLines = () =>
      httpStderr.split('\n').filter((line) => line.includes('2026-07-28 request refused'));
    const envelopeLess = () =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }).then((response) => response.text());
    for (let index = 0; index < 40; index++) await envelopeLess();
    // The server writes before it answers; a request answered after the flood shows everything was written.
    await modernPost('tools/list');
    for (let waited = 0; refusedLines().length === 0 && waited < 200; waited++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    // Every refusal of this file falls within one minute: the first is written, the others counted.
    expect(refusedLines()).toHaveLength(1);
  });
});
