import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { connectStdio } from './helpers/cli-client.js';

const hostile = fileURLToPath(new URL('./fixtures/hostile-upstream.mjs', import.meta.url));
/** The upstream: 50,000 tools, about 37 MB of tools/list. */
const TOOL_COUNT = Number(process.env.SCRATCHPAD_MANY_TOOLS ?? 50_000);
const MAX_REPLY_BYTES = 8 * 1024 * 1024;

let home: string;
let client: Client;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'scratchpad-many-tools-'));
  ({ client } = await connectStdio(
    [
      process.env.SCRATCHPAD_CLI_UNDER_TEST ?? builtCli(),
      '--db',
      join(home, 'many.db'),
      '--session',
      'many',
      'proxy',
      '--',
      process.execPath,
      hostile,
      '--tools',
      String(TOOL_COUNT),
    ],
    { ...process.env, XDG_DATA_HOME: home },
  ));
}, 300_000);

afterAll(async () => {
  await client?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('scratchpad proxy in front of an upstream with 50,000 tools', () => {
  it('pages tools/list with cursors, each page within the reply limit, its own tools on the first page', async () => {
    const names: string[] = [];
    const pageBytes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: 300_000 });
      pageBytes.push(Buffer.byteLength(JSON.stringify(page)));
      names.push(...page.tools.map((tool) => tool.name));
      if (pageBytes.length === 1)
        expect(page.tools.slice(0, 3).map((tool) => tool.name)).toContain('scratchpad_write');
      cursor = page.nextCursor;
    } while (cursor);
    const upstream = names.filter((name) => name.startsWith('tool_'));
    expect(upstream).toHaveLength(TOOL_COUNT);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('leak');
    for (const bytes of pageBytes) expect(bytes).toBeLessThan(MAX_REPLY_BYTES);
    const total = pageBytes.reduce((sum, bytes) => sum + bytes, 0);
    expect(pageBytes.length).toBeGreaterThan(1);
    console.log(
      `tools/list through the proxy: ${names.length} tools in ${pageBytes.length} pages, ${total} bytes (largest page ${Math.max(...pageBytes)} bytes)`,
    );
    const called = await client.callTool({ name: `tool_${TOOL_COUNT - 1}`, arguments: {} });
    expect(JSON.stringify(called.content)).toContain(`called tool_${TOOL_COUNT - 1}`);
  }, 600_000);

  it('refuses a cursor made before the tool list changed, and says to list again', async () => {
    const first = await client.listTools({}, { timeout: 300_000 });
    expect(first.nextCursor).toBeDefined();
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()),
    );
    await client.callTool({ name: 'plant', arguments: { place: 'tool.title', text: 'new title' } });
    await changed;
    await expect(client.listTools({ cursor: first.nextCursor }, { timeout: 300_000 })).rejects.toThrow(
      /The list changed since this cursor was made/,
    );
  }, 600_000);

  it('refuses a cursor it did not make, as InvalidParams', async () => {
    await expect(client.listTools({ cursor: 'not-a-cursor' })).rejects.toThrow(/Invalid list cursor/);
  });
});
