/**
 * Three 40-line user scripts, as a newcomer would write them against the published package: one on
 * `llm-scratchpad/tools` alone, one on the root entry point, one on `llm-scratchpad/mcp`. `bench/types.js` and
 * test/type-footprint.test.ts type-check them (strict) to count the declaration files a user's `tsc` reads.
 */

/** Offers the scratchpad's tools to OpenAI, Anthropic and the AI SDK, and offloads a big result of its own tool. */
const TOOLS_SCRIPT = `// Offers the scratchpad's tools to three providers and offloads a large result of the host's own tool.
import {
  createDefaultPreset,
  type HostTool,
  runAnthropicToolUse,
  runOpenAIToolCall,
  type ScratchpadTool,
  toAISDKTools,
  toAnthropicTools,
  toOpenAIResponsesTools,
  toOpenAITools,
  type ToolContext,
  wrapTools,
} from 'llm-scratchpad/tools';

const preset = createDefaultPreset({ defaultReadLimit: 4_000 });
const tools: ScratchpadTool[] = [...preset.tools];
const offered = [toOpenAITools(tools), toAnthropicTools(tools), toOpenAIResponsesTools(tools)];
console.log(offered.map((list) => list.length), preset.systemPrompt.length);

const fetchLogs: HostTool = {
  name: 'fetch_logs',
  description: 'The build log of a CI run.',
  inputSchema: { type: 'object', properties: { run: { type: 'string' } }, required: ['run'] },
  execute: async (args) => \`log of run \${String(args.run)}\\n\`.repeat(10_000),
};

export async function answer(context: ToolContext): Promise<string[]> {
  const call = { id: 'call_1', type: 'function' as const, function: { name: 'scratchpad_list', arguments: '{}' } };
  const replies = [(await runOpenAIToolCall(tools, call, context)).content];
  const use = await runAnthropicToolUse(tools, { id: 'toolu_1', name: 'scratchpad_list', input: {} }, context);
  replies.push(use.content);
  for (const [name, tool] of Object.entries(toAISDKTools(tools, context))) replies.push(\`\${name}: \${tool.description}\`);
  const [logs] = wrapTools([fetchLogs], { session: context.session });
  if (logs !== undefined) replies.push((await logs.execute({ run: '42' })).text);
  return replies;
}
`;

/** Writes, reads, greps and offloads with the in-memory store, and compacts a conversation. */
const ROOT_SCRIPT = `// Keeps a large text outside the context: write it, read a slice, grep it, offload a result, compact messages.
import {
  compactMessages,
  createMemoryDriver,
  createOffloader,
  createOffloadPolicy,
  createScratchpad,
  estimateTokens,
  ScratchpadError,
  type WriteResult,
} from 'llm-scratchpad';

const scratchpad = createScratchpad({ driver: createMemoryDriver() });
const session = scratchpad.session('build-42');

export async function keepLog(log: string): Promise<WriteResult> {
  const written = await session.write('build_log', log);
  const head = await session.read('build_log', { type: 'lines', start: 1, end: 20 });
  console.log(head.content, estimateTokens(log));
  const errors = await session.grep('build_log', { pattern: 'ERROR' });
  console.log(errors.matches.length);
  return written;
}

export async function offload(result: unknown): Promise<string> {
  const offloader = createOffloader({ session, policy: createOffloadPolicy({}) });
  const outcome = await offloader.process({ tool: 'fetch_logs', result });
  return outcome.offloaded ? \`stored as \${outcome.entry.name}\` : outcome.text;
}

export async function compact(messages: { role: string; content: unknown }[]): Promise<number> {
  try {
    const compacted = await compactMessages(messages, { session, keepRecent: 4 });
    return compacted.messages.length;
  } catch (error) {
    if (error instanceof ScratchpadError) console.error(error.code, error.hint);
    throw error;
  }
}
`;

/** Serves one session over stdio, or proxies an upstream MCP server with offloading. */
const MCP_SCRIPT = `// Serves a session's scratchpad to an MCP client over stdio, or adds offloading to another MCP server.
import { createMemoryDriver, createScratchpad } from 'llm-scratchpad';
import {
  createMcpServer,
  entryUri,
  type McpProxy,
  parseEntryUri,
  serveStdio,
  startMcpProxy,
} from 'llm-scratchpad/mcp';
import { createDefaultPreset } from 'llm-scratchpad/tools';

const scratchpad = createScratchpad({ driver: createMemoryDriver() });
const preset = createDefaultPreset();

export async function serve(session: string): Promise<void> {
  const server = createMcpServer({ scratchpad, session, preset, name: 'notes' });
  const uri = entryUri(session, 'plan');
  console.error('serving', parseEntryUri(uri).name);
  await serveStdio(server, { maxRequestBytes: 1_000_000 });
}

export async function proxy(command: string, args: string[]): Promise<McpProxy> {
  const started = await startMcpProxy({
    scratchpad,
    session: 'proxied',
    preset,
    upstream: { command, args },
    policy: { threshold: 2_000 },
  });
  console.error('proxying', started.tools.length, 'tools');
  return started;
}

export async function stop(proxies: McpProxy[]): Promise<void> {
  for (const running of proxies) {
    await running.close();
  }
  console.error('stopped', proxies.length);
}
`;

/** The user scripts by the entry point they exercise. */
export const USER_SCRIPTS = {
  'llm-scratchpad/tools': TOOLS_SCRIPT,
  'llm-scratchpad': ROOT_SCRIPT,
  'llm-scratchpad/mcp': MCP_SCRIPT,
};
