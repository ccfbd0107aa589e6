import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { connectStdio, toolText } from './helpers/cli-client.js';

let cli: string;
let home: string;
let client: Client;
let stderr: () => string;

beforeAll(async () => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-limits-'));
  ({ client, stderr } = await connectStdio([cli, '--db', join(home, 'limits.db'), 'mcp'], {
    ...process.env,
    XDG_DATA_HOME: home,
  }));
}, 120_000);

afterAll(async () => {
  await client?.close();
  rmSync(home, { recursive: true, force: true });
});

const text = toolText;

/** Deterministic text of `bytes` ASCII bytes, lines of 64 characters. */
function content(bytes: number, seed: string): string {
  const line = `${seed} ${'0123456789abcdef'.repeat(4)}`.slice(0, 63);
  return `${line}\n`.repeat(Math.ceil(bytes / 64)).slice(0, bytes);
}

describe('message sizes over stdio: no message ends the server', () => {
  it('answers 20 MB and 50 MB requests with an error naming the limit, keeps serving, loses nothing', async () => {
    const keep = await client.callTool({
      name: 'scratchpad_write',
      arguments: { name: 'keep', content: 'safe' },
    });
    expect(keep.isError).toBeFalsy();
    for (const megabytes of [20, 50]) {
      const attempt = client.callTool({
        name: 'scratchpad_write',
        arguments: { name: `huge-${megabytes}`, content: 'x'.repeat(megabytes * 1_000_000) },
      });
      await expect(attempt).rejects.toMatchObject({
        code: ErrorCode.InvalidRequest,
        message: expect.stringMatching(
          /The request \(\d+\.\d MB\) is over this server's limit of 16\.8 MB \(16,777,216 bytes\) \(--max-request-bytes\); it was not read, and the server is still running\. Send large content in pieces \(scratchpad_write with mode "append"/,
        ),
      });
    }
    expect(text(await client.callTool({ name: 'scratchpad_read', arguments: { name: 'keep' } }))).toContain(
      'safe',
    );
    const list = text(await client.callTool({ name: 'scratchpad_list', arguments: {} }));
    expect(list).toContain('keep');
    expect(list).not.toContain('huge-');
    expect(stderr()).toBe('');
  }, 60_000);

  it('cuts a 27 MB read to one capped answer that names the next call; a resource past the reply limit is refused', async () => {
    const whole = content(27_000_000, 'big');
    const piece = 6_750_000;
    for (let start = 0; start < whole.length; start += piece) {
      const result = await client.callTool({
        name: 'scratchpad_write',
        arguments: { name: 'big', content: whole.slice(start, start + piece), mode: 'append' },
      });
      expect(result.isError, text(result)).toBeFalsy();
    }
    // The default preset's answers are capped (32 KiB): the read is cut, never built whole.
    const cut = await client.callTool({ name: 'scratchpad_read', arguments: { name: 'big', limit: 1e9 } });
    expect(cut.isError).toBeFalsy();
    const answer = text(cut);
    expect(Buffer.byteLength(answer)).toBeLessThanOrEqual(32 * 1024);
    const call = JSON.parse(/scratchpad_read (\{[^}]*\})\]$/.exec(answer)?.[1] ?? '{}') as {
      name: string;
      offset: number;
      limit: number;
    };
    expect(call.offset).toBeGreaterThan(20_000);
    expect(call.offset + call.limit).toBe(27_000_000);
    expect(answer).toContain(whole.slice(0, call.offset));
    const next = text(await client.callTool({ name: 'scratchpad_read', arguments: call }));
    expect(next).toContain(whole.slice(call.offset, call.offset * 2));
    const resource = client.readResource({ uri: 'scratchpad://default/big?offset=0&limit=60000000' });
    await expect(resource).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('scratchpad://default/big?offset=0&limit=7500000'),
    });
    const tail = await client.readResource({ uri: 'scratchpad://default/big?offset=26999000&limit=1000' });
    expect(tail.contents[0]).toMatchObject({ text: whole.slice(26_999_000) });
  }, 60_000);
});

describe('malformed input over stdio', () => {
  it('answers a non-JSON line, a non-JSON-RPC message and an oversized one, and goes on', async () => {
    const child = spawn(process.execPath, [cli, '--store', 'memory:', 'mcp', '--max-request-bytes', '1000'], {
      env: { ...process.env, XDG_DATA_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: child.stdout });
    const replies: unknown[] = [];
    lines.on('line', (line) => replies.push(JSON.parse(line)));
    const send = (line: string) => child.stdin.write(`${line}\n`);
    send('this is not json');
    send('{"hello": "world"}');
    send(
      `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"x","arguments":{"c":"${'y'.repeat(5000)}"}}}`,
    );
    send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    );
    const deadline = Date.now() + 10_000;
    while (replies.length < 4 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill();
    expect(replies[0]).toMatchObject({ error: { code: ErrorCode.ParseError } });
    expect(replies[1]).toMatchObject({ error: { code: ErrorCode.InvalidRequest } });
    expect(replies[2]).toMatchObject({
      id: 'big',
      error: { code: ErrorCode.InvalidRequest, message: expect.stringContaining('1,000 bytes') },
    });
    expect(replies[3]).toMatchObject({ id: 1, result: { serverInfo: { name: 'scratchpad' } } });
  }, 30_000);
});
