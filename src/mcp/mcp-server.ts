import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ScratchpadError } from '../core/errors.js';
import { formatBytes } from '../core/format.js';
import { errorPayload, formatError } from '../core/format-error.js';
import type { Scratchpad } from '../scratchpad/scratchpad.js';
import type { Preset } from '../tools/preset.js';
import { runTool, type ScratchpadTool, toolJsonSchema } from '../tools/tool.js';
import { ENTRY_URI_TEMPLATE, entryUri, parseEntryUri } from './entry-uri.js';

/** Options for {@link createMcpServer}. */
export interface McpServerOptions {
  scratchpad: Scratchpad;
  /** The session the tools act on. */
  session: string;
  preset: Preset;
  /** Extra tools served next to the preset's (the proxy adds the upstream server's tools here). */
  extraTools?: ScratchpadTool[];
  /** Server name and version reported to clients. */
  name?: string;
  version?: string;
  /** Where unexpected failures are reported (default: stderr; stdout belongs to the protocol). */
  log?: (message: string) => void;
}

const PAGE = 200;

/**
 * An MCP server over the scratchpad: the preset's tools (with their exact JSON Schemas) and every entry of the
 * session as a resource. Tool failures are results with `isError: true`, never protocol errors, and a bug in a
 * handler is reported as an error result instead of taking the server down.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const server = new Server(
    { name: options.name ?? 'scratchpad', version: options.version ?? '0.1.0' },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: options.preset.systemPrompt || undefined,
    },
  );
  const tools = (): ScratchpadTool[] => [...options.preset.tools, ...(options.extraTools ?? [])];
  const session = options.scratchpad.session(options.session);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: toolJsonSchema(tool) as { type: 'object'; [key: string]: unknown },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools().find((candidate) => candidate.name === request.params.name);
    if (!tool) {
      return errorResult(
        `There is no tool "${request.params.name}". Available tools: ${tools()
          .map((item) => item.name)
          .join(', ')}.`,
      );
    }
    try {
      const output = await runTool(tool, request.params.arguments ?? {}, { session, signal: extra.signal });
      return {
        content: [{ type: 'text', text: output.text }],
        ...(output.isError ? { isError: true } : {}),
      };
    } catch (error) {
      log(
        `scratchpad mcp: tool ${tool.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return errorResult(
        `Internal error in ${tool.name}: ${error instanceof Error ? error.message : String(error)}. This is a bug in the scratchpad server; the server is still running.`,
      );
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const entries = await session.list();
    const start = request.params?.cursor ? Number(request.params.cursor) : 0;
    const page = entries.slice(start, start + PAGE);
    return {
      resources: page.map((entry) => ({
        uri: entryUri(options.session, entry.name),
        name: entry.name,
        mimeType: entry.mediaType.split(';')[0],
        size: entry.bytes,
        description:
          entry.kind === 'text'
            ? `${entry.chars.toLocaleString('en-US')} chars, ${entry.lines.toLocaleString('en-US')} lines${entry.source ? `, from ${entry.source}` : ''}`
            : `${formatBytes(entry.bytes)} binary${entry.source ? `, from ${entry.source}` : ''}`,
      })),
      ...(start + PAGE < entries.length ? { nextCursor: String(start + PAGE) } : {}),
    };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: ENTRY_URI_TEMPLATE,
        name: 'scratchpad entry',
        description:
          'An entry of a session; add ?lines=A:B, ?head=N, ?tail=N or ?offset=N&limit=N to read a slice.',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      const { session: sessionId, name, slice } = parseEntryUri(request.params.uri);
      const result = await options.scratchpad.read(sessionId, name, slice);
      const mimeType = result.entry.mediaType.split(';')[0];
      return {
        contents: [
          result.encoding === 'utf8'
            ? { uri: request.params.uri, mimeType, text: result.content }
            : {
                uri: request.params.uri,
                mimeType,
                blob:
                  result.encoding === 'base64'
                    ? result.content
                    : Buffer.from(result.content, 'hex').toString('base64'),
              },
        ],
      };
    } catch (error) {
      // Resource reads have no error result: a protocol error with our message and hint is the only channel.
      // The caller's mistakes (a missing entry, a bad slice) are InvalidParams, as the SDK's own server answers.
      if (ScratchpadError.isInstance(error))
        throw new McpError(
          error.category === 'user' ? ErrorCode.InvalidParams : ErrorCode.InternalError,
          formatError(error),
          errorPayload(error),
        );
      throw error;
    }
  });

  return server;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
