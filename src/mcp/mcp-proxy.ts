import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { z } from 'zod';
import { ScratchpadError } from '../core/errors.js';
import type { OffloadPolicyOptions } from '../scratchpad/offload/index.js';
import type { Scratchpad } from '../scratchpad/scratchpad.js';
import type { Preset } from '../tools/preset.js';
import { defineTool, type ScratchpadTool } from '../tools/tool.js';
import { TOOL_NAMES } from '../tools/tool-names.js';
import { wrapTools } from '../tools/wrap-tools.js';
import { createMcpServer } from './mcp-server.js';
import { upstreamTools } from './upstream-tools.js';

/** Options for {@link startMcpProxy}. */
export interface McpProxyOptions {
  scratchpad: Scratchpad;
  session: string;
  /** The scratchpad tools served next to the upstream's (its read tool reads the offloaded results). */
  preset: Preset;
  /** The upstream MCP server, started as a child process speaking stdio. */
  upstream: { command: string; args: string[]; env?: Record<string, string>; cwd?: string };
  /** The offload policy (threshold, format, previews) applied to upstream results. */
  policy?: OffloadPolicyOptions;
  log?: (message: string) => void;
}

/** A running proxy: the MCP server to connect a transport to, and how to stop the upstream. */
export interface McpProxy {
  server: Server;
  /** Names of the upstream tools served (wrapped). */
  tools: string[];
  close(): Promise<void>;
}

const passThrough = z.record(z.string(), z.unknown());

/**
 * An MCP proxy that adds the scratchpad to any stdio MCP server: it starts the upstream server, serves its tools
 * wrapped by {@link wrapTools} (large results are stored and replaced by a preview; every tool gets the optional
 * `scratchpad` parameter) plus the preset's own tools, and entries as resources.
 */
export async function startMcpProxy(options: McpProxyOptions): Promise<McpProxy> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const client = new Client({ name: 'scratchpad-proxy', version: '0.1.0' });
  const transport = new StdioClientTransport({
    command: options.upstream.command,
    args: options.upstream.args,
    env: { ...getDefaultEnvironment(), ...(options.upstream.env ?? {}) },
    ...(options.upstream.cwd ? { cwd: options.upstream.cwd } : {}),
    stderr: 'inherit',
  });
  const upstream = [options.upstream.command, ...options.upstream.args].join(' ');
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new ScratchpadError(
      'UPSTREAM_UNAVAILABLE',
      `Cannot start the upstream MCP server "${upstream}": ${(error as Error).message}`,
      {
        hint: 'Check the command after "--" (it must speak MCP over stdio), e.g. scratchpad proxy -- npx -y @modelcontextprotocol/server-filesystem /tmp',
        cause: error,
      },
    );
  }
  const own = new Set(options.preset.tools.map((tool) => tool.name));
  const hostTools = (await upstreamTools(client)).filter((tool) => {
    if (!own.has(tool.name)) return true;
    log(
      `scratchpad proxy: the upstream tool "${tool.name}" has the name of a scratchpad tool; it is not served.`,
    );
    return false;
  });
  const session = options.scratchpad.session(options.session);
  const wrapped = wrapTools(hostTools, { session, policy: { readTool: TOOL_NAMES.read, ...options.policy } });
  const extraTools: ScratchpadTool[] = wrapped.map((tool) =>
    defineTool({
      name: tool.name,
      description: tool.description,
      parameters: passThrough,
      inputSchema: tool.inputSchema,
      async execute(input, context) {
        const result = await tool.execute(input, {
          ...(context.signal ? { signal: context.signal } : {}),
          ...(context.turn ? { turn: context.turn } : {}),
        });
        return { text: result.text, isError: result.isError };
      },
    }),
  );
  const server = createMcpServer({
    scratchpad: options.scratchpad,
    session: options.session,
    preset: options.preset,
    extraTools,
    name: 'scratchpad-proxy',
    log,
  });
  return {
    server,
    tools: wrapped.map((tool) => tool.name),
    async close() {
      await server.close().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
