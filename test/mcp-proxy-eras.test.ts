import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const fixture = fileURLToPath(new URL('./fixtures/era-upstream.mjs', import.meta.url));
const SECRET = 'AKIAQ7X2M4LZ8PD3RWNT';
type Era = 'legacy' | 'modern';

/** The report the fixture's `big_report` answers (the same formula). */
function report(rows: number, era: Era): string {
  return Array.from({ length: rows }, (_, index) =>
    index === Math.floor(rows * 0.7)
      ? `row ${index}: ANOMALY in ${era} upstream`
      : `row ${index}: steady ${era}`,
  ).join('\n');
}

let cli: string;
let home: string;
const children: ChildProcess[] = [];
/** The HTTP upstream of each era, and the HTTP proxy in front of it. */
const upstreamUrl = new Map<Era, string>();
const proxyUrl = new Map<Era, string>();

/** Starts `node ARGS…` and resolves with the first match of `pattern` in what it prints on `stream`. */
function started(args: string[], stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, XDG_DATA_HOME: home, SCRATCHPAD_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let printed = '';
    child[stream]?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const match = pattern.exec(printed);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${printed}`)));
  });
}

function proxyArgs(session: string): string[] {
  return ['--db', join(home, 'proxy-eras.db'), '--session', session, 'proxy', '--threshold', '2000'];
}

beforeAll(async () => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-proxy-eras-'));
  for (const era of ['legacy', 'modern'] as const) {
    const upstream = await started([fixture, era, 'http'], 'stdout', /listening (\S+)/);
    upstreamUrl.set(era, upstream);
    proxyUrl.set(
      era,
      await started(
        [cli, ...proxyArgs(`web-${era}`), '--http', '127.0.0.1:0', '--url', upstream],
        'stderr',
        /at (http:\/\/\S+\/mcp)/,
      ),
    );
  }
}, 120_000);

afterAll(() => {
  for (const child of children) child.kill();
  rmSync(home, { recursive: true, force: true });
});

function stdioParams(session: string, upstream: Era) {
  return {
    command: process.execPath,
    args: [cli, ...proxyArgs(session), '--', process.execPath, fixture, upstream, 'stdio'],
    env: { ...(process.env as Record<string, string>), XDG_DATA_HOME: home },
    stderr: 'ignore' as const,
  };
}

/** What the tests ask of a client of either SDK (the same calls, the same JSON). */
interface AnyClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function connect(
  client: Era,
  transport: 'stdio' | 'http',
  upstream: Era,
): Promise<{ client: AnyClient; era: string | undefined }> {
  const session = `${transport}-${client}-${upstream}`;
  if (client === 'modern') {
    const modern = new ModernClient(
      { name: 'proxy-eras-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await modern.connect(
      transport === 'http'
        ? new ModernHttpTransport(new URL(proxyUrl.get(upstream) as string))
        : new ModernStdioTransport(stdioParams(session, upstream)),
    );
    return { client: modern as unknown as AnyClient, era: modern.getProtocolEra() };
  }
  const legacy = new LegacyClient({ name: 'proxy-eras-test', version: '1.0.0' });
  await legacy.connect(
    transport === 'http'
      ? new LegacyHttpTransport(new URL(proxyUrl.get(upstream) as string))
      : new LegacyStdioTransport(stdioParams(session, upstream)),
  );
  return { client: legacy as unknown as AnyClient, era: 'legacy' };
}

function text(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? [])
    .map((part) => part.text ?? '')
    .join('');
}

/** An entry read whole through the proxy's read tool, page by page (each page says which characters it holds). */
async function readWhole(client: AnyClient, name: string): Promise<string> {
  let whole = '';
  for (let offset = 0, pages = 0; pages < 50; pages++) {
    const page = text(await client.callTool({ name: 'scratchpad_read', arguments: { name, offset } }));
    const header = /^\[[^\]]*chars ([\d,]+)–([\d,]+) of ([\d,]+)[^\]]*\]\n/.exec(page);
    if (!header) throw new Error(`not a page of ${name}: ${page.slice(0, 200)}`);
    const [end, total] = [header[2], header[3]].map((figure) => Number(figure?.replaceAll(',', '')));
    const body = page.slice(header[0].length);
    // A page ends with a note on what lies after it, or (the last) before it.
    whole += body.replace(/\n\[[\d,]+ (?:more chars after this: [^\n]*|chars before it)\]$/, '');
    if (end === total) return whole;
    offset = end as number;
  }
  throw new Error(`${name} did not end within 50 pages`);
}

describe.each([
  ['stdio', 'legacy', 'legacy'],
  ['stdio', 'legacy', 'modern'],
  ['stdio', 'modern', 'legacy'],
  ['stdio', 'modern', 'modern'],
  ['http', 'legacy', 'legacy'],
  ['http', 'legacy', 'modern'],
  ['http', 'modern', 'legacy'],
  ['http', 'modern', 'modern'],
] as const)('scratchpad proxy over %s: a %s client, a %s upstream', (transport, clientEra, upstreamEra) => {
  it('lists its own tools first, offloads a large result read back exactly, redacts a secret', async () => {
    const { client, era } = await connect(clientEra, transport, upstreamEra);
    try {
      expect(era).toBe(clientEra);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      const firstUpstream = names.findIndex((name) => !name.startsWith('scratchpad_'));
      expect(names.slice(0, firstUpstream)).toContain('scratchpad_read');
      expect(names.slice(firstUpstream)).toEqual(['big_report', 'leak', 'ping']);

      const big = text(await client.callTool({ name: 'big_report', arguments: { rows: 3000 } }));
      const stored = /stored as (\S+) /.exec(big)?.[1];
      expect(stored, big.slice(0, 300)).toBeDefined();
      expect(big.length).toBeLessThan(20_000);
      expect(await readWhole(client, stored as string)).toBe(report(3000, upstreamEra));

      const leak = text(await client.callTool({ name: 'leak', arguments: {} }));
      expect(leak).toContain(`deploy finished; aws_access_key_id = `);
      expect(leak).toContain(`(${upstreamEra})`);
      expect(leak).not.toContain(SECRET);
      expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe(`pong from ${upstreamEra}`);
    } finally {
      await client.close();
    }
  }, 60_000);
});

/** One raw 2026-07-28 POST to the HTTP proxy in front of `upstream`. */
const modernPost = (upstream: Era, method: string, params: Record<string, unknown> = {}) =>
  postModernRequest(proxyUrl.get(upstream) as string, method, params);

describe.each(['legacy', 'modern'] as const)(
  'raw 2026-07-28 requests to the HTTP proxy (a %s upstream)',
  (upstream) => {
    it('meets the MUSTs it claims: resultType, cache fields on lists and reads, a stable tools/list', async () => {
      const discover = (await modernPost(upstream, 'server/discover')).result ?? {};
      const tools = (await modernPost(upstream, 'tools/list')).result ?? {};
      const again = (await modernPost(upstream, 'tools/list')).result ?? {};
      const resources = (await modernPost(upstream, 'resources/list')).result ?? {};
      const templates = (await modernPost(upstream, 'resources/templates/list')).result ?? {};
      const call = (await modernPost(upstream, 'tools/call', { name: 'leak', arguments: {} })).result ?? {};
      const write = await modernPost(upstream, 'tools/call', {
        name: 'scratchpad_write',
        arguments: { name: 'probe', content: 'x\n' },
      });
      const read =
        (await modernPost(upstream, 'resources/read', { uri: `scratchpad://web-${upstream}/probe` }))
          .result ?? {};
      const missing = await modernPost(upstream, 'resources/read', {
        uri: `scratchpad://web-${upstream}/absent`,
      });
      const musts: [string, boolean][] = [
        ['server/discover offers 2026-07-28', (discover.supportedVersions as string[]).includes(MODERN)],
        [
          'every result carries resultType',
          [discover, tools, resources, templates, call, write.result ?? {}, read].every(
            (result) => result.resultType === 'complete',
          ),
        ],
        [
          'lists and resources/read carry ttlMs 0 and cacheScope private',
          [tools, resources, templates, read].every(
            (result) => result.ttlMs === 0 && result.cacheScope === 'private',
          ),
        ],
        ['tools/list is the same on every call', JSON.stringify(tools.tools) === JSON.stringify(again.tools)],
        [
          // Delivered on `subscriptions/listen` where the proxy hears the upstream's changes: a 2025 upstream's
          // notices; this 2026 HTTP upstream (createMcpHandler without an event bus) honours no listen filter.
          'tool-list changes are claimed only where heard, no other list changes',
          (discover.capabilities as { tools?: { listChanged?: boolean } }).tools?.listChanged ===
            (upstream === 'legacy') &&
            JSON.stringify({ ...(discover.capabilities as object), tools: {} }).includes('listChanged') ===
              false,
        ],
        ['the upstream serverInfo does not pass as the proxy', !JSON.stringify(call).includes('upstream"')],
        ['a secret in an upstream result is redacted', !JSON.stringify(call).includes(SECRET)],
        ['a resources/read miss is -32602', missing.error?.code === -32602],
      ];
      expect(musts.filter(([, met]) => !met).map(([must]) => must)).toEqual([]);
    });
  },
);
