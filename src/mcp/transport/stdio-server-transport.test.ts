import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BoundedStdioServerTransport } from './stdio-server-transport.js';

const request = (id: number, method: string) => `${JSON.stringify({ jsonrpc: '2.0', id, method })}\n`;

describe('BoundedStdioServerTransport.firstMessage', () => {
  it('holds the first message and those after it, and start() delivers them all, in order, then the rest', async () => {
    const stdin = new PassThrough();
    const transport = new BoundedStdioServerTransport({ stdin, stdout: new PassThrough() });
    const first = transport.firstMessage();
    stdin.write(request(1, 'initialize') + request(2, 'tools/list'));
    await expect(first).resolves.toMatchObject({ id: 1, method: 'initialize' });
    stdin.write(request(3, 'ping'));
    await new Promise((resolve) => setImmediate(resolve));
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    stdin.write(request(4, 'ping'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received.map((message) => (message as { id: number }).id)).toEqual([1, 2, 3, 4]);
    await transport.close();
  });

  it('resolves undefined when the client leaves before saying anything', async () => {
    const stdin = new PassThrough();
    const transport = new BoundedStdioServerTransport({ stdin, stdout: new PassThrough() });
    const first = transport.firstMessage();
    stdin.end();
    await expect(first).resolves.toBeUndefined();
  });
});
