// A 2026-07-28 reply streamed over HTTP (SSE: the handler sent progress before its result) is held to the reply
// limit like a JSON reply and like the 2025-11-25 path, and its progress reaches the client. A real v2 SDK server
// whose tool reports progress, behind our HTTP endpoint, and the real v2 client.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, serveHttp } from '../src/mcp/http/serve-http.js';
import { createMcpServer } from '../src/mcp/mcp-server.js';
import { createScratchpad } from '../src/service/scratchpad.js';
import { createMemoryDriver } from '../src/stores/memory/memory-driver.js';
import { createPreset } from '../src/tools/presets/create-preset.js';
import { MODERN } from './helpers/modern-post.js';

const MAX_REPLY_BYTES = 64 * 1024;
/** Characters of the big tool's result: over the limit once JSON-framed; 'é' is 2 bytes, so bytes ≠ characters. */
const BIG_CHARS = 40_000;

let http: McpHttpServer;

/** A v2 server whose tools report progress 1, 2, 3 and then return `small` (100 chars) or `big` (80 kB). */
function progressServer(): Server {
  const server = new Server({ name: 'progress', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({
    tools: ['small', 'big'].map((name) => ({ name, inputSchema: { type: 'object' as const } })),
  }));
  server.setRequestHandler('tools/call', async (request, context) => {
    const progressToken = (context.mcpReq._meta as { progressToken?: string | number } | undefined)
      ?.progressToken;
    if (progressToken !== undefined)
      for (const progress of [1, 2, 3])
        await context.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress, total: 3 },
        });
    const text = request.params.name === 'big' ? 'é'.repeat(BIG_CHARS) : 'x'.repeat(100);
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

beforeAll(async () => {
  const scratchpad = createScratchpad({ driver: createMemoryDriver() });
  http = await serveHttp({
    createServer: () => createMcpServer({ scratchpad, session: 's', preset: createPreset('default') }),
    createModernServer: progressServer,
    address: '127.0.0.1:0',
    maxReplyBytes: MAX_REPLY_BYTES,
    log: () => undefined,
  });
});

afterAll(async () => {
  await http?.close();
});

async function callWithProgress(
  name: string,
): Promise<{ text: string; isError: boolean; progress: number[] }> {
  const client = new ModernClient(
    { name: 'sse-limit', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new ModernHttpTransport(new URL(http.url)));
  try {
    expect(client.getProtocolEra()).toBe('modern');
    const progress: number[] = [];
    const result = await client.callTool(
      { name, arguments: {} },
      { onprogress: (update) => progress.push(update.progress) },
    );
    const content = result.content as { type: string; text: string }[];
    return { text: content[0]?.text ?? '', isError: result.isError === true, progress };
  } finally {
    await client.close();
  }
}

describe('2026-07-28 SSE replies over HTTP', () => {
  it('replies on an event stream when the tool sends progress (the path under test)', async () => {
    const response = await fetch(http.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'big',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'big',
          arguments: {},
          _meta: {
            progressToken: 'p1',
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await response.text();
    expect(Buffer.byteLength(body)).toBeLessThan(MAX_REPLY_BYTES);
    const messages = body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map(
        (line) =>
          JSON.parse(line.slice(5)) as { id?: number; method?: string; result?: Record<string, unknown> },
      );
    expect(messages.filter((message) => message.method === 'notifications/progress')).toHaveLength(3);
    const reply = messages.find((message) => message.id === 7);
    expect(reply?.result).toMatchObject({ isError: true, resultType: 'complete' });
  });

  it('holds a streamed result to the reply limit, with an error the model can act on', async () => {
    const big = await callWithProgress('big');
    expect(big.isError).toBe(true);
    expect(big.text).toMatch(
      /^The reply \(.*\) is over this server's limit of .*65,536 bytes\) \(--max-reply-bytes\)/,
    );
    expect(big.progress).toEqual([1, 2, 3]);
  });

  it('passes a streamed result under the limit unchanged, its progress first', async () => {
    const small = await callWithProgress('small');
    expect(small).toEqual({ text: 'x'.repeat(100), isError: false, progress: [1, 2, 3] });
  });
});
