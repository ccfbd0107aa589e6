import type { ScratchpadTool, ToolContext } from '../tool.js';
import { runTool, toolJsonSchema } from '../tool.js';
import type { AnthropicInputSchema, AnthropicTool } from './anthropic-shapes.js';
import { findTool, providerToolName, unknownToolText } from './provider-names.js';

/** A `tool_use` content block. */
export interface AnthropicToolUse {
  type?: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** The `tool_result` block to send back in the next user message. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** Our tools as Anthropic tools (native definitions where a tool has one). */
export function toAnthropicTools(tools: readonly ScratchpadTool[]): AnthropicTool[] {
  return tools.map(
    (tool) =>
      tool.anthropicDefinition ?? {
        name: providerToolName(tool.name),
        description: tool.description,
        input_schema: objectInputSchema(tool),
      },
  );
}

/** Anthropic takes object schemas only; every tool's input is an object (a tool defined otherwise is a bug). */
function objectInputSchema(tool: ScratchpadTool): AnthropicInputSchema {
  const schema = toolJsonSchema(tool);
  if (schema.type !== 'object') throw new TypeError(`Tool "${tool.name}" has no object input schema.`);
  return { ...schema, type: 'object' };
}

/** Runs one `tool_use` block; errors come back as `is_error` results the model can act on. */
export async function runAnthropicToolUse(
  tools: readonly ScratchpadTool[],
  block: AnthropicToolUse,
  context: ToolContext,
): Promise<AnthropicToolResult> {
  const tool = findTool(tools, block.name);
  if (!tool)
    return {
      type: 'tool_result',
      tool_use_id: block.id,
      content: unknownToolText(tools, block.name),
      is_error: true,
    };
  const output = await runTool(tool, block.input, context);
  return {
    type: 'tool_result',
    tool_use_id: block.id,
    content: output.text,
    ...(output.isError ? { is_error: true } : {}),
  };
}
