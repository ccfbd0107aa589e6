import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnServer } from '../scripts/lib/spawn-server.mjs';
import { builtCli } from './helpers/built-cli.js';
import { toolText } from './helpers/cli-client.js';

// What an upstream sends its client while a call runs (progress, log messages) and asks of it (sampling,
// elicitation) reaches the proxy's client, over stdio and over HTTP, with the conformance suite's fixture as the
// upstream (test/conformance/fixture-server.mjs); scripts/conformance.mjs runs the suite itself on Node 22.

const fixture = fileURLToPath(new URL('./conformance/fixture-server.mjs', import.meta.url));
let cli: string;
let home: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-proxy-requests-'));
});
afterAll(() => {
  for (const child of children) child.kill();
  rmSync(home, { recursive: true, force: true });
});

function proxyArgs(database: string, ...served: string[]): string[] {
  return [cli, '--db', join(home, database), 'proxy', ...served, '--', process.execPath, fixture, '--stdio'];
}

/** `scratchpad proxy --http 127.0.0.1:0 -- <fixture>`, and the URL it serves. */
async function proxyOverHttp(database: string): Promise<string> {
  const { child, url } = spawnServer(proxyArgs(database, '--http', '127.0.0.1:0'), {
    name: 'proxy',
    env: { ...process.env, XDG_DATA_HOME: home, SCRATCHPAD_TOKEN: '' },
  });
  children.push(child);
  return url;
}

/** An official SDK client that answers sampling and elicitation as a person and a model would, and keeps logs. */
async function connectAnswering(transport: Transport, name: string) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
  const logs: unknown[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]?.content;
    const asked = content && !Array.isArray(content) && content.type === 'text' ? content.text : '';
    return {
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: `${name} sampled: ${asked}` },
    };
  });
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { username: name, email: `${name}@example.com` },
  }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
    logs.push(notification.params.data);
  });
  await client.connect(transport);
  return { client, logs };
}

async function expectForwarded(client: Client, logs: unknown[], name: string): Promise<void> {
  const progress: number[] = [];
  const done = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
    onprogress: (update) => progress.push(update.progress),
  });
  expect(toolText(done)).toBe('Progress test completed');
  // In order, none invented; on a loaded machine the upstream's last one can still reach the proxy after its result
  // (the SDK client hands notifications over later than responses), and then no client can take it.
  expect(progress.length).toBeGreaterThan(0);
  expect([0, 50, 100].filter((value) => progress.includes(value))).toEqual(progress);

  await client.setLoggingLevel('debug');
  await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
  // Log messages are notifications of the session, relayed as they come: the last may follow the result.
  await vi.waitFor(() =>
    expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']),
  );

  const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'two plus two?' } });
  expect(toolText(sampled)).toBe(`LLM response: ${name} sampled: two plus two?`);
  const elicited = await client.callTool({
    name: 'test_elicitation',
    arguments: { message: 'who are you?' },
  });
  expect(toolText(elicited)).toBe(
    `User response: action=accept, content={"username":"${name}","email":"${name}@example.com"}`,
  );
}

describe('scratchpad proxy passes on what its upstream sends and asks during a call', () => {
  it('over stdio: progress, log messages, sampling and elicitation reach the client and its answers go back', async () => {
    const { client, logs } = await connectAnswering(
      new StdioClientTransport({
        command: process.execPath,
        args: proxyArgs('stdio.db'),
        env: { ...process.env, XDG_DATA_HOME: home } as Record<string, string>,
        stderr: 'pipe',
      }),
      'stdio-client',
    );
    try {
      await expectForwarded(client, logs, 'stdio-client');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('over HTTP: on the stream of the call that runs, to the client that made it, with two clients connected', async () => {
    const url = await proxyOverHttp('http.db');
    const first = await connectAnswering(new StreamableHTTPClientTransport(new URL(url)), 'first');
    const second = await connectAnswering(new StreamableHTTPClientTransport(new URL(url)), 'second');
    try {
      await expectForwarded(first.client, first.logs, 'first');
      const sampled = await second.client.callTool({ name: 'test_sampling', arguments: { prompt: 'who?' } });
      expect(toolText(sampled)).toBe('LLM response: second sampled: who?');
    } finally {
      await first.client.close();
      await second.client.close();
    }
  }, 60_000);

  it('refuses a request it cannot place, saying why: a client without the capability', async () => {
    const url = await proxyOverHttp('refuse.db');
    const plain = new Client({ name: 'no-sampling', version: '1.0.0' });
    await plain.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const result = await plain.callTool({ name: 'test_sampling', arguments: { prompt: 'x' } });
      expect(result.isError).toBe(true);
      expect(toolText(result)).toContain('does not support sampling');
    } finally {
      await plain.close();
    }
  }, 60_000);
});
