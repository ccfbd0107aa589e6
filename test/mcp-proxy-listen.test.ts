// `subscriptions/listen` through `scratchpad proxy` (MCP 2026-07-28): a 2026 client of the proxy hears the
// upstream's tool list change, in front of a 2025-11-25 upstream (its `notifications/tools/list_changed`, which the
// proxy relays to 2025 clients) and of a 2026-07-28 one (on the listen stream the proxy opens on it), and the proxy
// claims `tools.listChanged: true` to it. The real v2 client, the built CLI over stdio and over HTTP, the fixture
// upstream over stdio.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { listeningClient, toolNames } from './helpers/listening-client.js';

const fixture = fileURLToPath(new URL('./fixtures/era-upstream.mjs', import.meta.url));
type Era = 'legacy' | 'modern';

let home: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'scratchpad-proxy-listen-'));
});

afterAll(() => {
  for (const child of children) child.kill();
  rmSync(home, { recursive: true, force: true });
});

/**
 * `scratchpad proxy [SERVE…]` for `session` in front of a fixture upstream of `era` over stdio that can add a tool.
 */
function proxyArgs(session: string, era: Era, serve: string[] = []): string[] {
  return [
    builtCli(),
    '--db',
    join(home, 'proxy-listen.db'),
    '--session',
    session,
    'proxy',
    ...serve,
    '--',
    process.execPath,
    fixture,
    era,
    'stdio',
    'grows',
  ];
}

function stdioTransport(session: string, era: Era): Promise<ModernStdioTransport> {
  const [cli, ...args] = proxyArgs(session, era);
  return Promise.resolve(
    new ModernStdioTransport({
      command: process.execPath,
      args: [cli as string, ...args],
      env: { ...(process.env as Record<string, string>), XDG_DATA_HOME: home },
      stderr: 'ignore',
    }),
  );
}

/** `scratchpad proxy --http` for `session`: a transport to it once it says where it listens. */
function httpTransport(session: string, era: Era): Promise<ModernHttpTransport> {
  const child = spawn(process.execPath, proxyArgs(session, era, ['--http', '127.0.0.1:0']), {
    env: { ...process.env, XDG_DATA_HOME: home, SCRATCHPAD_TOKEN: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) resolve(new ModernHttpTransport(new URL(match[1] as string)));
    });
    child.once('exit', (code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
  });
}

describe.each([
  ['stdio', stdioTransport],
  ['http', httpTransport],
] as const)('subscriptions/listen through the proxy over %s', (kind, transportFor) => {
  it.each([
    ['a 2025-11-25', 'legacy'],
    ['a 2026-07-28', 'modern'],
  ] as const)('tells a listening 2026 client that %s upstream added a tool', async (_, era) => {
    const { client, changed } = await listeningClient(
      await transportFor(`grows-${era}-${kind}`, era),
      'proxy-listen-test',
    );
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      expect(await toolNames(client)).not.toContain('added');
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });

      await client.callTool({ name: 'add_tool', arguments: {} });
      await changed;
      expect(await toolNames(client)).toContain('added');
      await subscription.close();
      expect(await subscription.closed).toBe('local');
    } finally {
      await client.close();
    }
  });
});
