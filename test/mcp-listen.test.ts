// `subscriptions/listen` (MCP 2026-07-28): a 2026 client that listens hears the tool list change when a dynamic
// preset's read tool appears with the session's first entry, as a 2025-11-25 connection hears
// `notifications/tools/list_changed`; a static preset says `tools.listChanged: false` and honours no such filter.
// The real v2 client over stdio (the built CLI) and over real HTTP (serveHttp in process, with the watch).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EntryPresence } from '../src/mcp/entry-presence.js';
import { type McpHttpServer, serveHttp } from '../src/mcp/http/serve-http.js';
import { createMcpServer } from '../src/mcp/mcp-server.js';
import { createModernMcpServer } from '../src/mcp/modern-mcp-server.js';
import { createScratchpad, type Scratchpad } from '../src/service/scratchpad.js';
import { createSqliteDriver } from '../src/stores/sqlite/sqlite-driver.js';
import type { PresetName } from '../src/tools/preset.js';
import { createPreset } from '../src/tools/presets/create-preset.js';
import { builtCli } from './helpers/built-cli.js';
import { listeningClient, toolNames } from './helpers/listening-client.js';

let home: string;
let dbPath: string;
/** The same database file the CLI servers use: what another process writing to the session looks like. */
let scratchpad: Scratchpad;
const servers: McpHttpServer[] = [];
const children: ChildProcess[] = [];

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'scratchpad-listen-'));
  dbPath = join(home, 'listen.db');
  scratchpad = createScratchpad({ driver: createSqliteDriver({ path: dbPath }) });
});

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const child of children) child.kill();
  await scratchpad?.close();
  rmSync(home, { recursive: true, force: true });
});

function stdioTransport(session: string, preset: PresetName): ModernStdioTransport {
  return new ModernStdioTransport({
    command: process.execPath,
    args: [builtCli(), '--db', dbPath, '--session', session, 'mcp', '--preset', preset],
    env: { ...(process.env as Record<string, string>), XDG_DATA_HOME: home },
    stderr: 'ignore',
  });
}

/** `scratchpad mcp --http` for one session: its URL once it says where it listens. */
async function cliHttpUrl(session: string, preset: PresetName): Promise<URL> {
  const child = spawn(
    process.execPath,
    [builtCli(), '--db', dbPath, '--session', session, 'mcp', '--preset', preset, '--http', '127.0.0.1:0'],
    {
      env: { ...process.env, XDG_DATA_HOME: home, SCRATCHPAD_TOKEN: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  return new Promise<URL>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) resolve(new URL(match[1] as string));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

/** serveHttp for one session, fed the session's entry presence the way `scratchpad mcp` feeds it. */
async function httpUrl(session: string, preset: PresetName): Promise<URL> {
  const options = { scratchpad, session, preset: createPreset(preset), sessionHandles: false as const };
  const dynamic = createPreset(preset).readToolOnDemand === true;
  const server = await serveHttp({
    createServer: () => createMcpServer(options),
    createModernServer: () => createModernMcpServer(options, 'modern', { toolListWatched: dynamic }),
    ...(dynamic
      ? {
          watchToolList: (announce: () => void) =>
            new EntryPresence(scratchpad.session(session), { pollMs: 50 }).onChange(announce),
        }
      : {}),
    address: '127.0.0.1:0',
    log: () => undefined,
  });
  servers.push(server);
  return new URL(server.url);
}

describe.each([
  ['stdio', (session: string, preset: PresetName) => Promise.resolve(stdioTransport(session, preset))],
  [
    'http',
    async (session: string, preset: PresetName) => new ModernHttpTransport(await httpUrl(session, preset)),
  ],
  [
    'http (the CLI)',
    async (session: string, preset: PresetName) => new ModernHttpTransport(await cliHttpUrl(session, preset)),
  ],
] as const)('subscriptions/listen over %s', (kind, transportFor) => {
  it('tells a listening 2026 client that the tool list changed when the first entry is written', async () => {
    const session = `dynamic-${kind.replace(/\W/g, '')}`;
    const { client, changed } = await listeningClient(await transportFor(session, 'metnos'));
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      expect(await toolNames(client)).not.toContain('scratchpad_read');
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });

      await scratchpad.session(session).write('first', 'the first entry of the session');
      await changed;
      expect(await toolNames(client)).toContain('scratchpad_read');
      await subscription.close();
      expect(await subscription.closed).toBe('local');
    } finally {
      await client.close();
    }
  });

  it('tells a client of a static preset listChanged false, and honours no tool-list filter', async () => {
    const { client } = await listeningClient(
      await transportFor(`static-${kind.replace(/\W/g, '')}`, 'default'),
    );
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(false);
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({});
      if (kind !== 'stdio') {
        // Nothing to deliver: the SDK's HTTP entry ends the subscription at once.
        expect(await subscription.closed).toBe('graceful');
      } else {
        // The SDK's stdio entry keeps an empty subscription open until the client closes it.
        await subscription.close();
        expect(await subscription.closed).toBe('local');
      }
    } finally {
      await client.close();
    }
  });
});

it('runs the HTTP watch only while a listener is open, and stops it when the server closes', async () => {
  let watching = 0;
  const options = {
    scratchpad,
    session: 'closing',
    preset: createPreset('metnos'),
    sessionHandles: false as const,
  };
  const server = await serveHttp({
    createServer: () => createMcpServer(options),
    createModernServer: () => createModernMcpServer(options, 'modern', { toolListWatched: true }),
    watchToolList: (announce) => {
      watching += 1;
      const stop = new EntryPresence(scratchpad.session('closing')).onChange(announce);
      return () => {
        watching -= 1;
        stop();
      };
    },
    address: '127.0.0.1:0',
    log: () => undefined,
  });
  const { client } = await listeningClient(new ModernHttpTransport(new URL(server.url)));
  expect(watching).toBe(0);
  // A client that closes its stream stops the watch (its request is aborted when the connection closes).
  const first = await client.listen({ toolsListChanged: true });
  expect(watching).toBe(1);
  await first.close();
  await vi.waitFor(() => expect(watching).toBe(0));
  const subscription = await client.listen({ toolsListChanged: true });
  expect(watching).toBe(1);
  await server.close();
  expect(watching).toBe(0);
  expect(await subscription.closed).not.toBe('local');
  await client.close();
});
