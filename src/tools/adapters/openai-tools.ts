import type { JsonSchema, ScratchpadTool, ToolContext } from '../tool.js';
import { runTool, toolJsonSchema } from '../tool.js';
import { findTool, providerToolName, unknownToolText } from './provider-names.js';

/** An OpenAI Chat Completions function tool. */
export interface OpenAIFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

/** An OpenAI tool call as the API returns it (`arguments` is a JSON string). */
export interface OpenAIToolCall {
  id: string;
  type?: 'function';
  function: { name: string; arguments: string };
}

/** The tool message to append to the conversation. */
export interface OpenAIToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** Our tools as OpenAI function tools (names aliased when OpenAI would reject them). */
export function toOpenAITools(tools: readonly ScratchpadTool[]): OpenAIFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: providerToolName(tool.name),
      description: tool.description,
      parameters: toolJsonSchema(tool),
    },
  }));
}

/** Runs one OpenAI tool call and returns the tool message; bad JSON or an unknown tool becomes an error message. */
export async function runOpenAIToolCall(
  tools: readonly ScratchpadTool[],
  call: OpenAIToolCall,
  context: ToolContext,
): Promise<OpenAIToolMessage> {
  const tool = findTool(tools, call.function.name);
  if (!tool)
    return { role: 'tool', tool_call_id: call.id, content: unknownToolText(tools, call.function.name) };
  let input: unknown;
  try {
    input = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
  } catch (error) {
    return {
      role: 'tool',
      tool_call_id: call.id,
      content: `Error (INVALID_ARGUMENT): The arguments are not valid JSON (${(error as Error).message}). Send a JSON object.`,
    };
  }
  const output = await runTool(tool, input, context);
  return { role: 'tool', tool_call_id: call.id, content: output.text };
}
