import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JsonSchema } from '../tools/tool.js';
import type { HostTool } from '../tools/wrap-tools.js';

/** One content block of an MCP tool result (the parts the proxy understands). */
interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
}

/** The upstream server's tools as host tools whose results are plain values the offloader can store. */
export async function upstreamTools(client: Client): Promise<HostTool[]> {
  const tools: HostTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    for (const tool of page.tools) {
      tools.push({
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema as JsonSchema,
        async execute(args, options) {
          const result = await client.callTool(
            { name: tool.name, arguments: args },
            undefined,
            options.signal ? { signal: options.signal } : {},
          );
          const value = resultValue(result.content as ContentBlock[] | undefined, result.structuredContent);
          if (result.isError)
            throw new Error(typeof value === 'string' ? value : 'the upstream tool reported an error');
          return value;
        },
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/**
 * Flattens an MCP result: text blocks (and embedded text resources) become one string; a result that is only one
 * image, audio or blob becomes its bytes (stored as binary); other binary parts are described in the text.
 */
export function resultValue(
  content: ContentBlock[] | undefined,
  structured: unknown,
): string | Uint8Array | unknown {
  const blocks = content ?? [];
  const binary = blocks.filter(
    (block) => typeof block.data === 'string' || typeof block.resource?.blob === 'string',
  );
  if (binary.length === 1 && blocks.length === 1) {
    const block = binary[0] as ContentBlock;
    return Buffer.from((block.data ?? block.resource?.blob) as string, 'base64');
  }
  const parts = blocks.map((block) => {
    if (typeof block.text === 'string') return block.text;
    if (typeof block.resource?.text === 'string') return block.resource.text;
    const bytes = Buffer.byteLength(block.data ?? block.resource?.blob ?? '', 'base64');
    return `[${block.type}${block.mimeType ? ` ${block.mimeType}` : ''}: ${bytes} bytes]`;
  });
  if (parts.length === 0 && structured !== undefined) return structured;
  return parts.join('\n');
}
