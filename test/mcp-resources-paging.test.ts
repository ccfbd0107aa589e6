import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { RESOURCE_PAGE_SIZE } from '../src/mcp/entry-resources.js';
import { createMcpServer } from '../src/mcp/mcp-server.js';
import { createScratchpad } from '../src/service/scratchpad.js';
import { createSqliteDriver } from '../src/stores/sqlite/sqlite-driver.js';
import { createPreset } from '../src/tools/presets/create-preset.js';

const directory = mkdtempSync(join(tmpdir(), 'mcp-paging-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('MCP resources/list pages with the library cursor', () => {
  it('pages of 200, stable while entries come and go; a foreign cursor is InvalidParams', async () => {
    const scratchpad = createScratchpad({
      driver: createSqliteDriver({ path: join(directory, 'store.db') }),
    });
    const session = scratchpad.session('A');
    for (let index = 0; index < 450; index++) await session.write(`e-${String(index).padStart(3, '0')}`, 'x');
    const server = createMcpServer({ scratchpad, session: 'A', preset: createPreset('default') });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'paging-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      let round = 0;
      let expectedFirst: string | undefined;
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        sizes.push(page.resources.length);
        if (expectedFirst !== undefined) expect(page.resources[0]?.name).toBe(expectedFirst);
        seen.push(...page.resources.map((resource) => resource.name));
        cursor = page.nextCursor;
        if (cursor !== undefined) {
          // The MCP cursor is the library's: the same string continues a library listing.
          expectedFirst = (await session.list({ cursor, limit: 1 })).entries[0]?.name;
          expect(expectedFirst?.startsWith('e-')).toBe(true);
        }
        round++;
        await session.write(`a-new-${round}`, 'x');
        await session.write(`z-new-${round}`, 'x');
        if (round === 1) await session.delete('e-300');
      } while (cursor !== undefined && round < 10);
      expect(sizes).toEqual([RESOURCE_PAGE_SIZE, RESOURCE_PAGE_SIZE, 51]);
      expect(new Set(seen).size).toBe(seen.length);
      for (let index = 0; index < 450; index++) {
        const name = `e-${String(index).padStart(3, '0')}`;
        if (name !== 'e-300') expect(seen).toContain(name);
      }
      expect(seen).not.toContain('e-300');

      for (const bad of ['e-199', 'eyJhZnRlciI6ImUtMTk5In0', 'x'.repeat(2000)]) {
        const error = await client.listResources({ cursor: bad }).catch((failure: unknown) => failure);
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
        expect((error as McpError).message).toContain('Invalid list cursor');
      }
      // The server keeps serving after a bad cursor.
      expect((await client.listResources()).resources).toHaveLength(200);
    } finally {
      await client.close();
      await scratchpad.close();
    }
  }, 60_000);
});
