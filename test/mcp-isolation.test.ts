import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/mcp/mcp-server.js';
import { createScratchpad, type Scratchpad } from '../src/service/scratchpad.js';
import type { StoreDriver } from '../src/stores/driver.js';
import { PRESET_NAMES } from '../src/tools/preset.js';
import { createPreset } from '../src/tools/presets/create-preset.js';
import { throwawayBackends } from './helpers/throwaway-backends.js';

const backends = throwawayBackends('isolation');
afterAll(() => backends.remove());
const BACKENDS = backends.open;

/** What session B holds; none of it may reach a client of session A. */
const SECRET = 'B-SECRET-7f3a9c';
const HIDDEN_NAME = 'b-hidden-entry';

async function connect(scratchpad: Scratchpad, preset: (typeof PRESET_NAMES)[number]): Promise<Client> {
  const server = createMcpServer({ scratchpad, session: 'A', preset: createPreset(preset) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'isolation-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

function outputOf(result: unknown): string {
  return JSON.stringify(result);
}

describe.each(Object.keys(BACKENDS))('a server bound to session A never shows session B (%s)', (backend) => {
  it.each(PRESET_NAMES)(
    'preset %s: tools, resources/read, resources/list and completions',
    async (preset) => {
      const scratchpad = createScratchpad({
        driver: await (BACKENDS[backend] as () => Promise<StoreDriver>)(),
      });
      try {
        const { entry: secret } = await scratchpad.write('B', 'secret', `${SECRET}\nline 2`);
        await scratchpad.write('B', HIDDEN_NAME, SECRET);
        await scratchpad.write('A', 'mine', 'A content');
        const client = await connect(scratchpad, preset);
        const outputs: string[] = [];

        // resources/read of B's entries: not found, the same answer as for a session that does not exist.
        for (const [uri, twin] of [
          ['scratchpad://B/secret', 'scratchpad://Z/secret'],
          ['scratchpad://B/secret?head=5', 'scratchpad://Z/secret?head=5'],
          ['scratchpad://B/nothing-here', 'scratchpad://Z/nothing-here'],
        ] as const) {
          const error = await client.readResource({ uri }).then(
            () => undefined,
            (caught: { code: number; message: string }) => caught,
          );
          const twinError = await client
            .readResource({ uri: twin })
            .catch((caught: { message: string }) => caught);
          expect(error?.code, uri).toBe(ErrorCode.InvalidParams);
          expect(error?.message.replaceAll('scratchpad://B/', 'scratchpad://Z/')).toBe(twinError.message);
          outputs.push(outputOf(error));
        }
        const own = await client.readResource({ uri: 'scratchpad://A/mine' });
        expect(own.contents[0]).toMatchObject({ text: 'A content' });

        // resources/list and templates show only A.
        const listed = await client.listResources();
        expect(listed.resources.map((resource) => resource.uri)).toContain('scratchpad://A/mine');
        for (const resource of listed.resources)
          expect(resource.uri.startsWith('scratchpad://A/')).toBe(true);
        outputs.push(outputOf(listed), outputOf(await client.listResourceTemplates()));

        // Completions offer A's names only, whatever the reference.
        for (const [uri, argument] of [
          ['scratchpad://A/{name}', 'name'],
          ['scratchpad://{session}/{name}', 'session'],
          ['scratchpad://{session}/{name}', 'name'],
          ['scratchpad://B/{name}', 'name'],
        ] as const) {
          const completion = await client.complete({
            ref: { type: 'ref/resource', uri },
            argument: { name: argument, value: '' },
          });
          outputs.push(outputOf(completion));
          expect(completion.completion.values).not.toContain('B');
          expect(completion.completion.values).not.toContain('secret');
        }
        expect(
          (
            await client.complete({
              ref: { type: 'ref/resource', uri: 'scratchpad://A/{name}' },
              argument: { name: 'name', value: 'mi' },
            })
          ).completion.values,
        ).toEqual(['mine']);

        // Every tool, with arguments aimed at B's entries by name, id, key, path, search and reference.
        const variants: Record<string, unknown>[] = [
          {},
          { name: 'secret' },
          { name: 'secret', lines: '1:2' },
          { id: secret.id },
          { name: 'secret', regex: 'SECRET' },
          { scratchpad_id: secret.id, mode: 'full' },
          { key: 'secret' },
          { query: 'SECRET 7f3a9c' },
          { query: 'secret' },
          { name: 'copy', content: '{{scratchpad:secret}}' },
          { key: 'copy', content: '{{scratchpad:secret}}' },
          { content: 'notes {{scratchpad:secret}}' },
          { name: 'secret', old_string: 'B', new_string: 'A' },
          { name: 'secret', content: 'overwritten' },
          { command: 'view', path: '/memories' },
          { command: 'view', path: '/memories/secret' },
          { command: 'create', path: '/memories/x.md', file_text: '{{scratchpad:secret}}' },
          { command: 'delete', path: '/memories/secret' },
        ];
        const { tools } = await client.listTools();
        expect(tools.length).toBeGreaterThan(0);
        for (const tool of tools) {
          for (const variant of variants) {
            outputs.push(outputOf(await client.callTool({ name: tool.name, arguments: variant })));
          }
        }
        for (const output of outputs) {
          expect(output).not.toContain(SECRET);
          expect(output).not.toContain(HIDDEN_NAME);
        }
        // B is untouched.
        expect((await scratchpad.get('B', 'secret')).version).toBe(1);
        expect((await scratchpad.read('B', 'secret')).content).toBe(`${SECRET}\nline 2`);
        expect((await scratchpad.list('B')).entries.map((entry) => entry.name).sort()).toEqual([
          HIDDEN_NAME,
          'secret',
        ]);
        await client.close();
      } finally {
        await scratchpad.close();
      }
    },
    30_000,
  );
});
