import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { connectStdio, toolText } from './helpers/cli-client.js';

const fixture = fileURLToPath(new URL('./fixtures/fidelity-server.mjs', import.meta.url));
const everything = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
let cli: string;
let home: string;
const clients: Client[] = [];

beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-fidelity-'));
}, 120_000);
afterAll(async () => {
  for (const client of clients) await client.close();
  rmSync(home, { recursive: true, force: true });
});

async function proxy(upstream: string[], database: string, extra: string[] = []): Promise<Client> {
  const { client } = await connectStdio(
    [
      cli,
      '--db',
      join(home, database),
      '--session',
      'proxied',
      'proxy',
      ...extra,
      '--',
      process.execPath,
      ...upstream,
    ],
    { ...process.env, XDG_DATA_HOME: home },
  );
  clients.push(client);
  return client;
}

async function direct(upstream: string[]): Promise<Client> {
  const { client } = await connectStdio(upstream);
  clients.push(client);
  return client;
}

type Block = { type: string; text?: string; [key: string]: unknown };
const blocks = (result: Awaited<ReturnType<Client['callTool']>>) => result.content as Block[];
const text = toolText;

describe('scratchpad proxy forwards everything it does not change (own fixture)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await proxy([fixture], 'fidelity.db', ['--threshold', '2000']);
  }, 60_000);

  it('lists upstream tools with title, annotations, icons, outputSchema and _meta, plus the scratchpad parameter', async () => {
    const upstream = await direct([fixture]);
    const original = (await upstream.listTools()).tools.find((tool) => tool.name === 'weather');
    const served = (await client.listTools()).tools.find((tool) => tool.name === 'weather');
    const { inputSchema, ...rest } = served ?? ({} as NonNullable<typeof served>);
    const { inputSchema: originalInput, ...originalRest } = original ?? ({} as NonNullable<typeof original>);
    expect(rest).toEqual(originalRest);
    expect(rest).toMatchObject({
      title: 'Weather report',
      annotations: { readOnlyHint: true },
      _meta: { 'example.com/cost': 3 },
    });
    expect(inputSchema).toEqual({
      ...originalInput,
      properties: { ...originalInput.properties, scratchpad: expect.objectContaining({ type: 'string' }) },
    });
    expect(client.getInstructions()).toContain('Fidelity server instructions.');
  });

  it('offloads a large structured result: preview, a resource_link, a conforming structuredContent; the same result twice is one entry', async () => {
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(result.isError).toBeFalsy();
    expect(result._meta).toEqual({ 'example.com/source': 'fixture' });
    const [observation, link] = blocks(result);
    expect(observation?.text).toContain('stored as weather_1');
    expect(link).toMatchObject({
      type: 'resource_link',
      uri: 'scratchpad://proxied/weather_1',
      name: 'weather_1',
    });
    const structured = result.structuredContent as { report: string; temperature: number };
    expect(structured.temperature).toBe(21);
    expect(structured.report).toContain('the whole value is in the scratchpad entry "weather_1"');
    expect(structured.report.length).toBeLessThan(2000);
    const stored = await client.readResource({ uri: 'scratchpad://proxied/weather_1' });
    expect((stored.contents[0] as { text: string }).text).toMatch(/^Report for Oslo\nhour 0: 21 C/);
    const again = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(text(again)).toContain('stored as weather_1');
    const entries = await client.callTool({ name: 'scratchpad_list', arguments: {} });
    expect(text(entries)).not.toContain('weather_2');
    // Reading back never offloads again.
    const read = await client.callTool({
      name: 'scratchpad_read',
      arguments: { name: 'weather_1', limit: 100_000 },
    });
    expect(text(read)).toContain('hour 399');
    expect(text(await client.callTool({ name: 'scratchpad_list', arguments: {} }))).not.toContain(
      'scratchpad_read',
    );
  });

  it('saves under an explicit name, with a structured preview that still conforms', async () => {
    const saved = await client.callTool({ name: 'weather', arguments: { city: 'Rome', scratchpad: 'rome' } });
    expect(text(saved)).toMatch(/^Saved the result of weather to the scratchpad as "rome"/);
    expect((saved.structuredContent as { temperature: number }).temperature).toBe(21);
  });

  it('passes resource_link blocks and images through; the long text beside the image is offloaded', async () => {
    const links = await client.callTool({ name: 'links', arguments: {} });
    expect(links.content).toEqual([
      { type: 'text', text: 'Two files:' },
      { type: 'resource_link', uri: 'fixture://item/1', name: 'item 1', mimeType: 'text/plain' },
      { type: 'resource_link', uri: 'fixture://item/2', name: 'item 2', description: 'the second' },
    ]);
    const mixed = await client.callTool({ name: 'mixed', arguments: {} });
    const types = blocks(mixed).map((block) => block.type);
    expect(types).toEqual(['text', 'resource_link', 'image']);
    expect(blocks(mixed)[2]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: Buffer.alloc(4033, 7).toString('base64'),
    });
  });

  it('serves upstream resources (all pages), templates, prompts and completions next to its own', async () => {
    await client.callTool({ name: 'scratchpad_write', arguments: { name: 'note', content: 'own entry' } });
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(uris.filter((uri) => uri.startsWith('fixture://item/'))).toHaveLength(250);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris).toContain('scratchpad://proxied/note');
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'scratchpad://proxied/{name}',
      'fixture://item/{id}',
    ]);
    expect(await client.readResource({ uri: 'fixture://item/7' })).toEqual({
      contents: [{ uri: 'fixture://item/7', mimeType: 'text/plain', text: 'content of fixture://item/7' }],
    });
    expect((await client.readResource({ uri: 'scratchpad://proxied/note' })).contents[0]).toMatchObject({
      text: 'own entry',
    });
    expect((await client.listPrompts()).prompts).toEqual([
      { name: 'greet', title: 'Greeting', arguments: [{ name: 'who', required: true }] },
    ]);
    expect(
      (await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).messages[0]?.content,
    ).toEqual({
      type: 'text',
      text: 'Hello, Ada!',
    });
    const prompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'A' },
    });
    expect(prompt.completion.values).toEqual(['Ada', 'Alan']);
    const template = await client.complete({
      ref: { type: 'ref/resource', uri: 'fixture://item/{id}' },
      argument: { name: 'id', value: '10' },
    });
    expect(template.completion.values).toEqual(['10', '100']);
    const own = await client.complete({
      ref: { type: 'ref/resource', uri: 'scratchpad://proxied/{name}' },
      argument: { name: 'name', value: 'no' },
    });
    expect(own.completion.values).toEqual(['note']);
  });

  it('relays progress, cancellation, logging and list_changed', async () => {
    const progress: unknown[] = [];
    const done = await client.callTool({ name: 'slow', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(text(done)).toBe('done');
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
    const controller = new AbortController();
    const waiting = client.callTool({ name: 'slow', arguments: { wait: true } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('enough'), 300);
    await expect(waiting).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(text(await client.callTool({ name: 'cancelled', arguments: {} }))).toBe('1');

    const logged = new Promise<unknown>((resolve) =>
      client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) =>
        resolve(notification.params),
      ),
    );
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'log', arguments: {} });
    expect(await logged).toEqual({ level: 'warning', logger: 'fixture', data: 'disk almost full' });

    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()),
    );
    await client.callTool({ name: 'add_tool', arguments: {} });
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('late');
    expect(text(await client.callTool({ name: 'late', arguments: {} }))).toBe('late tool');
  });

  it('resolves {{scratchpad:NAME}} in forwarded arguments, from its own session only', async () => {
    await client.callTool({ name: 'scratchpad_write', arguments: { name: 'greeting', content: 'hi there' } });
    const echoed = await client.callTool({
      name: 'echo',
      arguments: { text: 'said: {{scratchpad:greeting}}' },
    });
    expect(JSON.parse(text(echoed))).toEqual({ text: 'said: hi there' });
    const missing = await client.callTool({
      name: 'echo',
      arguments: { text: '{{scratchpad:other-session-entry}}' },
    });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('REFERENCE_UNRESOLVED');
  });

  it('redacts secrets in what the model reads back, while references pipe the stored bytes', async () => {
    const key = `sk_live_${'a1B2c3D4e5'.repeat(3)}`;
    await client.callTool({
      name: 'scratchpad_write',
      arguments: { name: 'billing.env', content: `STRIPE_KEY=${key}\nPLAN=pro\n` },
    });
    const read = text(await client.callTool({ name: 'scratchpad_read', arguments: { name: 'billing.env' } }));
    expect(read).toContain('STRIPE_KEY=[REDACTED:stripe-key]');
    expect(read).toContain('PLAN=pro');
    expect(read).not.toContain(key);
    const echoed = await client.callTool({ name: 'echo', arguments: { text: '{{scratchpad:billing.env}}' } });
    expect(JSON.parse(text(echoed))).toEqual({ text: 'STRIPE_KEY=[REDACTED:stripe-key]\nPLAN=pro\n' });
  });

  it('answers a call cut short by an upstream crash with a clear error, then restarts the upstream', async () => {
    const started = Date.now();
    const crashed = await client.callTool({ name: 'crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(text(crashed)).toMatch(
      /^Error \(UPSTREAM_UNAVAILABLE\): The upstream server ".*fidelity-server\.mjs" exited during the call \(exit code 3\); it is restarted on the next call\./,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(JSON.parse(text(await client.callTool({ name: 'echo', arguments: { text: 'back' } })))).toEqual({
      text: 'back',
    });
    const again = await client.callTool({ name: 'crash', arguments: {} });
    expect(again.isError).toBe(true);
    expect(JSON.parse(text(await client.callTool({ name: 'echo', arguments: { text: 'still' } })))).toEqual({
      text: 'still',
    });
  }, 30_000);
});

describe('scratchpad proxy in front of the official @modelcontextprotocol/server-everything', () => {
  let client: Client;
  let upstream: Client;
  beforeAll(async () => {
    client = await proxy([everything], 'everything.db', ['--threshold', '100000']);
    upstream = await direct([everything]);
  }, 60_000);

  it('serves its tools, resources, templates and prompts as the upstream does', async () => {
    const served = (await client.listTools()).tools;
    for (const tool of (await upstream.listTools()).tools) {
      const mine = served.find((item) => item.name === tool.name);
      expect(mine, tool.name).toBeDefined();
      expect(mine?.title).toBe(tool.title);
      expect(mine?.annotations).toEqual(tool.annotations);
      expect(mine?.outputSchema).toEqual(tool.outputSchema);
    }
    const theirs = (await upstream.listResources()).resources;
    const ours = (await client.listResources()).resources;
    expect(ours.filter((resource) => !resource.uri.startsWith('scratchpad://'))).toEqual(theirs);
    expect((await client.listResourceTemplates()).resourceTemplates.slice(1)).toEqual(
      (await upstream.listResourceTemplates()).resourceTemplates,
    );
    expect((await client.listPrompts()).prompts).toEqual((await upstream.listPrompts()).prompts);
    const uri = theirs[0]?.uri ?? '';
    expect(await client.readResource({ uri })).toEqual(await upstream.readResource({ uri }));
  });

  it('forwards resource links, images, structured content and progress', async () => {
    const links = await client.callTool({ name: 'get-resource-links', arguments: { count: 2 } });
    expect(links.content).toEqual(
      (await upstream.callTool({ name: 'get-resource-links', arguments: { count: 2 } })).content,
    );
    const image = await client.callTool({ name: 'get-tiny-image', arguments: {} });
    expect(blocks(image).map((block) => block.type)).toContain('image');
    expect(image.content).toEqual(
      (await upstream.callTool({ name: 'get-tiny-image', arguments: {} })).content,
    );
    const structured = await client.callTool({
      name: 'get-structured-content',
      arguments: { location: 'New York' },
    });
    expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    const progress: unknown[] = [];
    await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    // Its last step is sent with the response, which the SDK client may drop (typescript-sdk#2580).
    expect(progress.slice(0, 2)).toEqual([
      expect.objectContaining({ progress: 1, total: 3 }),
      expect.objectContaining({ progress: 2, total: 3 }),
    ]);
  }, 30_000);
});
