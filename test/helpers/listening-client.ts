import type { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'vitest';

/**
 * A 2026-07-28 client (the v2 SDK, negotiating) connected over `transport`, and a promise that settles at the first
 * `notifications/tools/list_changed` it hears.
 */
export async function listeningClient(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
  name = 'listen-test',
): Promise<{ client: ModernClient; changed: Promise<void> }> {
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const changed = new Promise<void>((resolve) => {
    client.setNotificationHandler('notifications/tools/list_changed', () => resolve());
  });
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe('modern');
  return { client, changed };
}

/** The names of the tools `client` lists now. */
export const toolNames = async (client: ModernClient) =>
  (await client.listTools()).tools.map((tool) => tool.name);
