import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Scratchpad } from '../scratchpad/scratchpad.js';
import type { Preset } from '../tools/preset.js';
import { EntryPresence } from './entry-presence.js';
import { EntryResources } from './entry-resources.js';
import { ScratchpadTools } from './scratchpad-tools.js';
import { serverInstructions } from './server-instructions.js';
import { DEFAULT_MAX_REPLY_BYTES } from './transport/message-limits.js';

/** Options for {@link createMcpServer}. */
export interface McpServerOptions {
  scratchpad: Scratchpad;
  /** The one session this server serves: its tools, resources and completions see no other. */
  session: string;
  preset: Preset;
  /** Server name and version reported to clients. */
  name?: string;
  version?: string;
  /** The reply limit of the transport (default 8 MiB): reads refuse slices that would not fit. */
  maxReplyBytes?: number;
  /** Largest size the `{{scratchpad:NAME}}` references of one call may expand to (default: the reply limit). */
  maxReferenceBytes?: number;
  /** How often to look for the session's first entry when the read tool waits for one (default 1 s). */
  presencePollMs?: number;
  /** Where unexpected failures are reported (default: stderr; stdout belongs to the protocol). */
  log?: (message: string) => void;
}

/** The share of the reply limit a tool's content may use; the rest is room for framing and JSON escapes. */
export function replyContentBudget(maxReplyBytes: number): number {
  return Math.floor(maxReplyBytes * 0.9);
}

/**
 * An MCP server over one session of the scratchpad: the preset's tools (with their exact JSON Schemas; seed 000's
 * read tool appears with `notifications/tools/list_changed` once the session has an entry), and the session's
 * entries as resources with a template and name completion. Tool failures are results with `isError: true`; a
 * bug in a handler is reported as an error result instead of taking the server down.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const session = options.scratchpad.session(options.session);
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const presence = new EntryPresence(session, { pollMs: options.presencePollMs ?? 1000 });
  const tools = new ScratchpadTools({
    session,
    preset: options.preset,
    maxReplyContentBytes: replyContentBudget(maxReplyBytes),
    maxReferenceBytes: options.maxReferenceBytes ?? maxReplyBytes,
    presence,
    log,
  });
  const resources = new EntryResources(session, { maxReplyContentBytes: replyContentBudget(maxReplyBytes) });
  const instructions = serverInstructions(options.preset);
  const server = new Server(
    { name: options.name ?? 'scratchpad', version: options.version ?? '0.1.0' },
    {
      capabilities: { tools: { listChanged: tools.dynamic }, resources: {}, completions: {} },
      ...(instructions ? { instructions } : {}),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await tools.list() }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    tools.call(request.params.name, request.params.arguments ?? {}, extra.signal),
  );
  server.setRequestHandler(ListResourcesRequestSchema, (request) => resources.list(request.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => resources.templates());
  server.setRequestHandler(ReadResourceRequestSchema, (request) => resources.read(request.params.uri));
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const result = await resources.complete(request.params.ref, request.params.argument);
    return result ?? { completion: { values: [] } };
  });

  if (tools.dynamic) {
    let stop: (() => void) | undefined;
    server.oninitialized = () => {
      stop = presence.onChange(() => void server.sendToolListChanged().catch(() => undefined));
    };
    server.onclose = () => stop?.();
  }
  return server;
}
