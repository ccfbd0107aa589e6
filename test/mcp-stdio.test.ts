import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';

let cli: string;
beforeAll(() => {
  cli = builtCli();
}, 120_000);

const clients: Client[] = [];
const directories: string[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

async function connect(args: string[]): Promise<Client> {
  const home = mkdtempSync(join(tmpdir(), 'scratchpad-mcp-'));
  directories.push(home);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, ...args],
    env: { ...process.env, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'scratchpad-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ type: string; text: string }>).map((part) => part.text).join('');
}

describe('scratchpad mcp over a real stdio pipe', () => {
  it('serves the default tools: write, read slices, grep, list, and entries as resources', async () => {
    const client = await connect(['--store', 'memory:', '--session', 'demo', 'mcp']);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'scratchpad_write',
      'scratchpad_read',
      'scratchpad_edit',
      'scratchpad_list',
      'scratchpad_delete',
      'scratchpad_search',
    ]);
    expect(tools[1]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { lines: { type: 'string' } },
    });
    const log = Array.from({ length: 1000 }, (_, index) =>
      index === 700 ? 'ERROR boom' : `ok ${index}`,
    ).join('\n');
    expect(log.length).toBe(6893);
    expect(
      text(await client.callTool({ name: 'scratchpad_write', arguments: { name: 'log', content: log } })),
    ).toBe(
      'Created "log" (6,893 chars, 1,000 lines, 6.9 KB, version 1). It is kept for this session (no expiry).',
    );
    expect(
      text(await client.callTool({ name: 'scratchpad_read', arguments: { name: 'log', regex: 'ERROR' } })),
    ).toContain('701: ERROR boom');
    expect(
      text(await client.callTool({ name: 'scratchpad_read', arguments: { name: 'log', lines: '2:3' } })),
    ).toBe(
      '[log: chars 5–15 of 6,893; lines 2–3 of 1,000]\nok 1\nok 2\n\n[6,878 more chars after this: scratchpad_read {"name": "log", "offset": 15}; 5 chars before it]',
    );
    const resources = await client.listResources();
    expect(resources.resources).toEqual([
      expect.objectContaining({
        uri: 'scratchpad://demo/log',
        name: 'log',
        mimeType: 'text/plain',
        size: 6893,
      }),
    ]);
    const slice = await client.readResource({ uri: 'scratchpad://demo/log?lines=701:701' });
    expect(slice.contents[0]).toMatchObject({
      uri: 'scratchpad://demo/log?lines=701:701',
      text: 'ERROR boom\n',
    });
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates[0]?.uriTemplate).toBe('scratchpad://demo/{name}');
  });

  it('returns tool errors as isError results and keeps serving', async () => {
    const client = await connect(['--store', 'memory:', 'mcp']);
    const missing = await client.callTool({ name: 'scratchpad_read', arguments: { name: 'nope' } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe(
      'Error (ENTRY_NOT_FOUND): No entry "nope" in session "default". The session has no entries.',
    );
    const badArgs = await client.callTool({ name: 'scratchpad_write', arguments: { name: 42 } });
    expect(badArgs.isError).toBe(true);
    expect(text(badArgs)).toContain('Invalid arguments for scratchpad_write');
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('There is no scratchpad tool "no_such_tool"');
    const regex = await client.callTool({ name: 'scratchpad_read', arguments: { name: 'x', regex: '(' } });
    expect(regex.isError).toBe(true);
    await expect(client.readResource({ uri: 'scratchpad://default/missing' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringMatching(/Error \(ENTRY_NOT_FOUND\): /),
    });
    expect(text(await client.callTool({ name: 'scratchpad_list', arguments: {} }))).toBe('(no entries)');
  });

  it('serves the openclaw notes tool and the anthropic memory tool', async () => {
    const openclaw = await connect(['--store', 'memory:', 'mcp', '--preset', 'openclaw']);
    const { tools } = await openclaw.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['session.scratchpad']);
    expect(
      text(
        await openclaw.callTool({ name: 'session.scratchpad', arguments: { content: '## Plan\n1. Fix X' } }),
      ),
    ).toMatch(/^Scratchpad updated \(\d+ tokens \/ 2000 budget\)$/);
    const memory = await connect(['--store', 'memory:', 'mcp', '--preset', 'anthropic-memory']);
    expect(
      text(
        await memory.callTool({
          name: 'memory',
          arguments: { command: 'create', path: '/memories/notes.md', file_text: 'hello' },
        }),
      ),
    ).toBe('File created successfully at: /memories/notes.md');
    const view = await memory.callTool({
      name: 'memory',
      arguments: { command: 'view', path: '/memories/notes.md' },
    });
    expect(text(view)).toBe("Here's the content of /memories/notes.md with line numbers:\n     1\thello");
    const traversal = await memory.callTool({
      name: 'memory',
      arguments: { command: 'view', path: '/memories/../etc/passwd' },
    });
    expect(traversal.isError).toBe(true);
  });

  it('serves the seed presets with their exact schemas', async () => {
    const home = mkdtempSync(join(tmpdir(), 'scratchpad-metnos-'));
    directories.push(home);
    const database = join(home, 'metnos.db');
    const metnos = await connect(['--db', database, 'mcp', '--preset', 'metnos']);
    // Seed 000: the read tool exists only once something was stored, announced with tools/list_changed.
    expect(metnos.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect((await metnos.listTools()).tools).toEqual([]);
    const changed = new Promise<void>((resolve) =>
      metnos.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()),
    );
    const writer = await connect(['--db', database, 'mcp']);
    await writer.callTool({ name: 'scratchpad_write', arguments: { name: 'obs', content: 'stored' } });
    await changed;
    const { tools } = await metnos.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      name: 'scratchpad_read',
      description: 'Reads from the scratchpad an observation previously saved...',
    });
    const harness = await connect(['--store', 'memory:', 'mcp', '--preset', 'harness']);
    expect(
      text(await harness.callTool({ name: 'scratchpad_write', arguments: { key: 'plan', content: 'abc' } })),
    ).toBe('wrote 3 chars to scratchpad[plan]');
    const bad = await harness.callTool({
      name: 'scratchpad_write',
      arguments: { key: '../x', content: 'abc' },
    });
    expect(bad).toMatchObject({ isError: true });
    expect(text(bad)).toBe("invalid key '../x': use [A-Za-z0-9_-]+");
  });

  it('resolves {{scratchpad:NAME}} in tool arguments from its own session only, bounded', async () => {
    const client = await connect([
      '--store',
      'memory:',
      '--session',
      'mine',
      'mcp',
      '--max-reply-bytes',
      '100000',
    ]);
    const { instructions } = { instructions: client.getInstructions() ?? '' };
    expect(instructions).toContain('{{scratchpad:NAME}}');
    expect(instructions).not.toContain('{{stepN');
    await client.callTool({ name: 'scratchpad_write', arguments: { name: 'plan', content: 'step one' } });
    await client.callTool({
      name: 'scratchpad_write',
      arguments: { name: 'copy', content: 'plan: {{scratchpad:plan}}; literal \\{{scratchpad:plan}}' },
    });
    expect(text(await client.callTool({ name: 'scratchpad_read', arguments: { name: 'copy' } }))).toContain(
      'plan: step one; literal {{scratchpad:plan}}',
    );
    const step = await client.callTool({
      name: 'scratchpad_write',
      arguments: { name: 'x', content: '{{step1.content}}' },
    });
    expect(text(step)).toContain('step references work only inside an agent turn');
    const missing = await client.callTool({
      name: 'scratchpad_write',
      arguments: { name: 'x', content: '{{scratchpad:nope}}' },
    });
    expect(text(missing)).toMatch(
      /^Error \(REFERENCE_UNRESOLVED\): Cannot resolve \{\{scratchpad:nope\}\}: there is no entry "nope"\. Entries: copy, plan\./,
    );
    await client.callTool({
      name: 'scratchpad_write',
      arguments: { name: 'big', content: 'x'.repeat(60_000) },
    });
    const tooBig = await client.callTool({
      name: 'scratchpad_write',
      arguments: { name: 'x', content: '{{scratchpad:big}}{{scratchpad:big}}' },
    });
    expect(text(tooBig)).toMatch(
      /^Error \(CONTENT_TOO_LARGE\): The references in these arguments expand to more than/,
    );
  });
});
