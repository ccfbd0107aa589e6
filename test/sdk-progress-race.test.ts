// Pins the cause of the lost progress notifications seen with a 2026-07-28 stdio client behind the proxy
// (decision 018): the official SDK clients, v1 (1.32) and v2 (2.4), drop a progress notification that arrives in
// the same chunk as its request's result. They settle the result at once (removing the request's progress
// handler) but dispatch notifications a microtask later, so the progress finds no handler
// ("Received a progress notification for an unknown token"; modelcontextprotocol/typescript-sdk#2580). A server
// cannot prevent it (it does not choose how the client's reads split its writes); only a client transport can,
// as ours does for the proxy's upstream (`proxy/child-process-transport.ts` hands results over a turn later).
// When this test fails, the SDK has fixed it: the proxy's one-turn wait and decision 018's note can go.
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';

const server = {
  command: process.execPath,
  args: [new URL('./fixtures/progress-in-one-write.mjs', import.meta.url).pathname],
  stderr: 'ignore' as const,
};

describe('official SDK clients and a progress notification read with its result', () => {
  it('v2 client (2.4): the progress is dropped and reported as for an unknown token', async () => {
    const client = new ModernClient({ name: 'race', version: '1.0.0' });
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    await client.connect(new ModernStdioTransport(server));
    try {
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'work', arguments: {} },
        { onprogress: (update) => progress.push(update.progress) },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(progress).toEqual([]);
      expect(errors.some((message) => message.includes('progress notification for an unknown token'))).toBe(
        true,
      );
    } finally {
      await client.close();
    }
  });

  it('v1 client (1.32): the same', async () => {
    const client = new LegacyClient({ name: 'race', version: '1.0.0' });
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    await client.connect(new LegacyStdioTransport(server));
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'work', arguments: {} }, undefined, {
        onprogress: (update) => progress.push(update.progress),
      });
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(progress).toEqual([]);
      expect(errors.some((message) => message.includes('progress notification for an unknown token'))).toBe(
        true,
      );
    } finally {
      await client.close();
    }
  });
});
