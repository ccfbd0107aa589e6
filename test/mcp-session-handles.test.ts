// Sessions as client-passed handles (decision 019): 2026-07-28 clients get `scratchpad_session` and a `session`
// argument on every tool; one HTTP endpoint serves many sessions with the store as its only state. Real v2 and v1
// SDK clients over real HTTP (in process, with a clock the test moves) and over stdio (the built CLI).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, serveHttp } from '../src/mcp/http/serve-http.js';
import { createMcpServer } from '../src/mcp/mcp-server.js';
import { createModernMcpServer } from '../src/mcp/modern-mcp-server.js';
import { HANDLE_REGISTRY_SESSION } from '../src/mcp/session-handles.js';
import { createScratchpad, type Scratchpad } from '../src/service/scratchpad.js';
import { createSqliteDriver } from '../src/stores/sqlite/sqlite-driver.js';
import { createPreset } from '../src/tools/presets/create-preset.js';
import { builtCli } from './helpers/built-cli.js';

const LIFETIME_MS = 60_000;
const HANDLE_META_KEY = 'scratchpad/session';

let home: string;
/** The clock of the store and of the handles: the test moves it past a handle's lifetime. */
let clock = Date.now();
const now = () => clock;
let scratchpad: Scratchpad;
let http: McpHttpServer;
/** A second endpoint on the same database file, in another Scratchpad: what a second server process sees. */
let otherScratchpad: Scratchpad;
let otherHttp: McpHttpServer;

async function serve(store: Scratchpad): Promise<McpHttpServer> {
  const options = { scratchpad: store, session: 'own', preset: createPreset('default') };
  return serveHttp({
    createServer: () => createMcpServer(options),
    createModernServer: () =>
      createModernMcpServer({ ...options, sessionHandles: { lifetimeMs: LIFETIME_MS, now } }, 'modern'),
    address: '127.0.0.1:0',
    log: () => undefined,
  });
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'scratchpad-handles-'));
  const path = join(home, 'store.db');
  scratchpad = createScratchpad({ driver: createSqliteDriver({ path }), now });
  otherScratchpad = createScratchpad({ driver: createSqliteDriver({ path }), now });
  http = await serve(scratchpad);
  otherHttp = await serve(otherScratchpad);
});

afterAll(async () => {
  await http?.close();
  await otherHttp?.close();
  await scratchpad?.close();
  await otherScratchpad?.close();
  rmSync(home, { recursive: true, force: true });
});

async function modernHttpClient(url = http.url): Promise<ModernClient> {
  const client = new ModernClient(
    { name: 'handles-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new ModernHttpTransport(new URL(url)));
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

function textOf(result: object): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? '').join('\n');
}

/** The handle with its last character changed: well formed, never issued. */
function forge(handle: string): string {
  return `${handle.slice(0, -1)}${handle.endsWith('A') ? 'B' : 'A'}`;
}

async function issue(client: ModernClient): Promise<string> {
  const result = await client.callTool({ name: 'scratchpad_session', arguments: {} });
  expect(result.isError ?? false).toBe(false);
  const handle = (result.structuredContent as { handle: string }).handle;
  expect(textOf(result)).toContain(handle);
  return handle;
}

describe('session handles over HTTP (one endpoint, many sessions)', () => {
  it('lists scratchpad_session last and a session argument on every other tool, with the lifetime', async () => {
    const client = await modernHttpClient();
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.at(-1)?.name).toBe('scratchpad_session');
      expect(tools.at(-1)?.description).toContain('1 minute');
      for (const tool of tools.slice(0, -1)) {
        const session = (tool.inputSchema.properties as Record<string, { description: string }>).session;
        expect(session?.description, tool.name).toContain('lasts 1 minute');
        expect(tool.inputSchema.required ?? [], tool.name).not.toContain('session');
      }
    } finally {
      await client.close();
    }
  });

  it("keeps each handle's entries from every other handle and from calls without one", async () => {
    const client = await modernHttpClient();
    try {
      const a = await issue(client);
      const b = await issue(client);
      expect(a).not.toBe(b);
      const written = await client.callTool({
        name: 'scratchpad_write',
        arguments: { session: a, name: 'plan', content: 'A-ONLY-4c1d\nline 2\n' },
      });
      expect(written.isError ?? false).toBe(false);

      const own = await client.callTool({ name: 'scratchpad_read', arguments: { session: a, name: 'plan' } });
      expect(textOf(own)).toContain('A-ONLY-4c1d');

      const outputs: string[] = [];
      for (const [label, args] of [
        ['read in B', { session: b, name: 'plan' }],
        ['read without a handle', { name: 'plan' }],
      ] as const) {
        const result = await client.callTool({ name: 'scratchpad_read', arguments: args });
        expect(result.isError, label).toBe(true);
        outputs.push(JSON.stringify(result));
      }
      for (const args of [{ session: b }, {}]) {
        const listed = await client.callTool({ name: 'scratchpad_list', arguments: args });
        outputs.push(JSON.stringify(listed));
        const searched = await client.callTool({
          name: 'scratchpad_search',
          arguments: { ...args, query: 'line' },
        });
        outputs.push(JSON.stringify(searched));
        const referenced = await client.callTool({
          name: 'scratchpad_write',
          arguments: { ...args, name: 'copy', content: '{{scratchpad:plan}}' },
        });
        expect(referenced.isError).toBe(true);
        outputs.push(JSON.stringify(referenced));
      }

      // Resources take the handle in the request's `_meta` (they have no arguments).
      const listedA = await client.listResources({ _meta: { [HANDLE_META_KEY]: a } });
      const uri = listedA.resources.find((resource) => resource.name === 'plan')?.uri as string;
      expect(uri).toMatch(/^scratchpad:\/\/h-/);
      const readA = await client.readResource({ uri, _meta: { [HANDLE_META_KEY]: a } });
      expect(readA.contents[0]).toMatchObject({ text: 'A-ONLY-4c1d\nline 2\n' });
      for (const meta of [{ [HANDLE_META_KEY]: b }, {}]) {
        const error = await client.readResource({ uri, _meta: meta }).then(
          () => undefined,
          (caught: { code: number; message: string }) => caught,
        );
        expect(error?.code).toBe(-32602);
        outputs.push(String(error?.message));
        const listed = await client.listResources({ _meta: meta });
        outputs.push(JSON.stringify(listed));
      }
      for (const output of outputs) expect(output).not.toContain('A-ONLY-4c1d');
    } finally {
      await client.close();
    }
  });

  it('answers a forged, malformed or wrongly typed handle with a tool error that says what to do', async () => {
    const client = await modernHttpClient();
    try {
      const real = await issue(client);
      const forged = forge(real);
      for (const handle of [forged, 'not-a-handle', 42, { handle: real }]) {
        const result = await client.callTool({
          name: 'scratchpad_list',
          arguments: { session: handle },
        });
        expect(result.isError, String(handle)).toBe(true);
        expect(textOf(result)).toMatch(/^Error \(SESSION_HANDLE_INVALID\): .*scratchpad_session/s);
        expect(textOf(result)).not.toContain(real);
      }
      const error = await client.listResources({ _meta: { [HANDLE_META_KEY]: forged } }).then(
        () => undefined,
        (caught: { code: number; message: string }) => caught,
      );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain('SESSION_HANDLE_INVALID');
    } finally {
      await client.close();
    }
  });

  it('honours a handle on another server of the same store, and ends it with its lifetime', async () => {
    const client = await modernHttpClient();
    const other = await modernHttpClient(otherHttp.url);
    try {
      const handle = await issue(client);
      await client.callTool({
        name: 'scratchpad_write',
        arguments: { session: handle, name: 'kept', content: 'shared store\n' },
      });
      const elsewhere = await other.callTool({
        name: 'scratchpad_read',
        arguments: { session: handle, name: 'kept' },
      });
      expect(textOf(elsewhere)).toContain('shared store');
      // The store holds digests only: the registry never names a handle.
      const registry = await scratchpad.session(HANDLE_REGISTRY_SESSION).list();
      expect(registry.entries.length).toBeGreaterThan(0);
      expect(JSON.stringify(registry)).not.toContain(handle);

      clock += LIFETIME_MS + 1;
      for (const caller of [client, other]) {
        const expired = await caller.callTool({
          name: 'scratchpad_read',
          arguments: { session: handle, name: 'kept' },
        });
        expect(expired.isError).toBe(true);
        expect(textOf(expired)).toMatch(
          /^Error \(SESSION_HANDLE_EXPIRED\): The session handle expired at .* \(a handle lasts 1 minute/,
        );
        expect(textOf(expired)).toContain('Call scratchpad_session for a new handle');
      }
      const error = await client
        .readResource({ uri: 'scratchpad://x/kept', _meta: { [HANDLE_META_KEY]: handle } })
        .then(
          () => undefined,
          (caught: { code: number; message: string }) => caught,
        );
      expect(error?.message).toContain('SESSION_HANDLE_EXPIRED');
      // A new handle works at once.
      const fresh = await issue(client);
      const listed = await client.callTool({ name: 'scratchpad_list', arguments: { session: fresh } });
      expect(listed.isError ?? false).toBe(false);
    } finally {
      await client.close();
      await other.close();
    }
  });

  it('leaves 2025-11-25 clients unchanged: no session argument, no scratchpad_session', async () => {
    const client = new LegacyClient({ name: 'handles-test', version: '1.0.0' });
    await client.connect(new LegacyHttpTransport(new URL(http.url)));
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.map((tool) => tool.name)).not.toContain('scratchpad_session');
      for (const tool of tools)
        expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain('session');
    } finally {
      await client.close();
    }
  });
});

describe('session handles over stdio (scratchpad mcp)', () => {
  it('issues a handle, keeps its entries apart, and refuses a forged one', async () => {
    const client = new ModernClient(
      { name: 'handles-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(
      new ModernStdioTransport({
        command: process.execPath,
        args: [builtCli(), '--db', join(home, 'stdio.db'), '--session', 'stdio-own', 'mcp'],
        env: { ...(process.env as Record<string, string>), XDG_DATA_HOME: home },
        stderr: 'ignore',
      }),
    );
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const handle = await issue(client);
      const written = await client.callTool({
        name: 'scratchpad_write',
        arguments: { session: handle, name: 'note', content: 'STDIO-HANDLE-9e2\n' },
      });
      expect(written.isError ?? false).toBe(false);
      const mine = await client.callTool({
        name: 'scratchpad_read',
        arguments: { session: handle, name: 'note' },
      });
      expect(textOf(mine)).toContain('STDIO-HANDLE-9e2');
      const withoutHandle = await client.callTool({ name: 'scratchpad_read', arguments: { name: 'note' } });
      expect(withoutHandle.isError).toBe(true);
      expect(textOf(withoutHandle)).not.toContain('STDIO-HANDLE-9e2');
      const forged = await client.callTool({
        name: 'scratchpad_read',
        arguments: { session: forge(handle), name: 'note' },
      });
      expect(textOf(forged)).toMatch(/^Error \(SESSION_HANDLE_INVALID\)/);
    } finally {
      await client.close();
    }
  }, 60_000);
});
