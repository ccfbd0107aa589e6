import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** An official SDK client connected over stdio to a command (the built CLI, an upstream server). */
export interface StdioClient {
  client: Client;
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

/** Starts `node ARGS…` and connects an official SDK client to it over stdio. */
export async function connectStdio(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<StdioClient> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'scratchpad-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The text blocks of a tool result, joined. */
export function toolText(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
}
