import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { connectStdio, toolText } from './helpers/cli-client.js';

const upstream = fileURLToPath(new URL('./fixtures/upstream-server.mjs', import.meta.url));
let cli: string;
let home: string;
let client: Client;

beforeAll(async () => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-proxy-'));
  ({ client } = await connectStdio(
    [
      cli,
      '--db',
      join(home, 'proxy.db'),
      '--session',
      'proxied',
      'proxy',
      '--threshold',
      '2000',
      '--',
      process.execPath,
      upstream,
    ],
    { ...process.env, XDG_DATA_HOME: home },
  ));
}, 120_000);
afterAll(async () => {
  await client?.close();
  rmSync(home, { recursive: true, force: true });
});

const text = toolText;

describe('scratchpad proxy in front of a real upstream MCP server', () => {
  it('serves the upstream tools with the scratchpad parameter, next to the scratchpad tools', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'dump_logs',
        'ping',
        'explode',
        'screenshot',
        'scratchpad_read',
        'scratchpad_write',
      ]),
    );
    const dump = tools.find((tool) => tool.name === 'dump_logs');
    expect(dump?.inputSchema.properties).toMatchObject({
      service: { type: 'string' },
      scratchpad: { type: 'string' },
    });
  });

  it('offloads a large result with a preview and reads it back through the proxy', async () => {
    const result = await client.callTool({ name: 'dump_logs', arguments: { service: 'billing' } });
    const observation = text(result);
    expect(result.isError).toBeFalsy();
    expect(observation.length).toBeLessThan(20_000);
    expect(observation).toContain('dump_logs_1');
    const grep = await client.callTool({
      name: 'scratchpad_read',
      arguments: { name: 'dump_logs_1', regex: 'ERROR' },
    });
    expect(text(grep)).toContain('4202: ERROR kafka consumer lag 98234');
    const resource = await client.readResource({ uri: 'scratchpad://proxied/dump_logs_1?lines=1:1' });
    expect(resource.contents[0]).toMatchObject({ text: 'logs of billing\n' });
  });

  it('keeps small results inline, passes upstream errors through, saves under an explicit name', async () => {
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    const failed = await client.callTool({ name: 'explode', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain('upstream exploded: disk quota exceeded');
    const saved = await client.callTool({
      name: 'dump_logs',
      arguments: { service: 'search', scratchpad: 'search-logs' },
    });
    expect(text(saved)).toMatch(/^Saved the result of dump_logs to the scratchpad as "search-logs"/);
    const head = await client.callTool({
      name: 'scratchpad_read',
      arguments: { name: 'search-logs', lines: '1:2' },
    });
    expect(text(head)).toContain('logs of search\nINFO offset 0 committed');
  });

  it('passes an image through as an image', async () => {
    const result = await client.callTool({ name: 'screenshot', arguments: {} });
    expect(result.content).toEqual([
      {
        type: 'image',
        mimeType: 'image/png',
        data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]).toString('base64'),
      },
    ]);
  });

  it('fails clearly when the upstream command cannot start', async () => {
    const { runCliAsync } = await import('./helpers/run-cli-async.js');
    const run = await runCliAsync(
      cli,
      ['--db', join(home, 'x.db'), 'proxy', '--', '/nonexistent/server-binary'],
      { env: { PATH: process.env.PATH ?? '', HOME: home } },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Cannot start the upstream MCP server "/nonexistent/server-binary"');
  });
});
