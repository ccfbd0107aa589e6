import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { connectStdio } from './helpers/cli-client.js';
import { arrayMarker, follow, readEntry, stringPointer } from './helpers/proxy-pointers.js';

const fixture = fileURLToPath(new URL('./fixtures/pointer-server.mjs', import.meta.url));
let home: string;
let client: Client;
let upstream: Client;

beforeAll(async () => {
  const cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-pointers-'));
  ({ client } = await connectStdio(
    [
      cli,
      '--db',
      join(home, 'p.db'),
      '--session',
      'p',
      'proxy',
      '--threshold',
      '8000',
      '--',
      process.execPath,
      fixture,
    ],
    { ...process.env, XDG_DATA_HOME: home },
  ));
  ({ client: upstream } = await connectStdio([fixture]));
}, 120_000);

afterAll(async () => {
  await client?.close();
  await upstream?.close();
  rmSync(home, { recursive: true, force: true });
});

const throughProxy = (name: string) => readEntry(client, 'p', name);
const call = (target: Client, name: string) => target.callTool({ name, arguments: {} });
type Block = { type: string; text?: string; uri?: string; name?: string };

describe('every pointer of the proxy holds what it points at (issue 31)', () => {
  it('a structured string cut beside a stored text is stored whole where its note says', async () => {
    const sent = (await call(upstream, 'text_and_diag')).structuredContent as { diagnostics: string };
    const got = (await call(client, 'text_and_diag')).structuredContent as {
      diagnostics: string;
      status: string;
    };
    expect(got.status).toBe('failed');
    const pointer = stringPointer(got.diagnostics);
    expect(pointer, got.diagnostics).toBeDefined();
    expect(await follow(throughProxy, pointer ?? { entry: '' })).toBe(sent.diagnostics);
  });

  it('a shortened array says so in its last element, which points at the whole array', async () => {
    const sent = (await call(upstream, 'many_items')).structuredContent as { items: unknown[] };
    const got = (await call(client, 'many_items')).structuredContent as { items: unknown[] };
    expect(got.items).toHaveLength(51);
    expect(got.items.slice(0, 50)).toEqual(sent.items.slice(0, 50));
    const marker = arrayMarker(got.items[50]);
    expect(marker, String(got.items[50])).toBeDefined();
    expect(got.items[50]).toMatch(/^\[… 100 of 150 items omitted;/);
    expect(await follow(throughProxy, marker ?? { entry: '' })).toEqual(sent.items);
  });

  it('an array the output schema allows no marker in is cut, and the text says where it is whole', async () => {
    const sent = (await call(upstream, 'typed_items')).structuredContent as { items: unknown[] };
    const result = await call(client, 'typed_items');
    const got = result.structuredContent as { items: unknown[] };
    expect(result.isError).toBeFalsy();
    expect(got.items).toEqual(sent.items.slice(0, 50));
    const text = (result.content as Block[]).map((block) => block.text ?? '').join('');
    const note =
      /"\/items" keeps 50 of 150 items; the whole array is at "\/items" in the JSON of the scratchpad entry "([^"]+)"/.exec(
        text,
      );
    expect(note, text).not.toBeNull();
    expect(await follow(throughProxy, { entry: note?.[1] ?? '', at: '/items' })).toEqual(sent.items);
  });

  it('an array the output schema wants whole is sent whole (it fits the reply)', async () => {
    const sent = (await call(upstream, 'strict_items')).structuredContent;
    const result = await call(client, 'strict_items');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(sent);
  });

  it('with scratchpad: NAME, the text is saved under NAME and the cut diagnostics where the note says', async () => {
    const sent = (await call(upstream, 'text_and_diag')) as {
      content: Block[];
      structuredContent: { diagnostics: string };
    };
    const result = await client.callTool({ name: 'text_and_diag', arguments: { scratchpad: 'diag-run' } });
    expect(await throughProxy('diag-run')).toBe(sent.content[0]?.text);
    const pointer = stringPointer((result.structuredContent as { diagnostics: string }).diagnostics);
    expect(pointer?.entry).not.toBe('diag-run');
    expect(await follow(throughProxy, pointer ?? { entry: '' })).toBe(sent.structuredContent.diagnostics);
  });

  it('two text blocks are stored so that both come back exactly (no separator added)', async () => {
    const sent = (await call(upstream, 'two_blocks')).content as Block[];
    const result = await call(client, 'two_blocks');
    const link = (result.content as Block[]).find((block) => block.type === 'resource_link');
    expect(link).toBeDefined();
    const stored = await readEntry(client, 'p', link?.name ?? '');
    expect(JSON.parse(String(stored))).toEqual(sent.map((block) => block.text));
    const observation = (result.content as Block[])[0]?.text ?? '';
    const chars = sent.reduce((total, block) => total + (block.text ?? '').length, 0);
    expect(observation).toContain(
      `2 text blocks (${sent.map((block) => (block.text ?? '').length.toLocaleString('en-US')).join(' and ')} chars; content[0], content[1])`,
    );
    expect(chars).toBeGreaterThan(8000);
  });
});
