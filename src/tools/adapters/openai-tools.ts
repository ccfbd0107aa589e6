import type { JsonSchema, ScratchpadTool, ToolContext } from '../tool.js';
import { runTool, toolJsonSchema } from '../tool.js';
import { findTool, providerToolName, unknownToolText } from './provider-names.js';

/** An OpenAI Chat Completions function tool. */
export interface OpenAIFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

/**
 * An OpenAI tool call as the API returns it (`message.tool_calls[i]`): a function call (`arguments` is a JSON
 * string), or a custom tool call, which these function tools never ask for and answer with an error message.
 */
export type OpenAIToolCall =
  | { id: string; type?: 'function'; function: { name: string; arguments: string } }
  | { id: string; type: 'custom'; custom: { name: string; input: string } };

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
  if (!('function' in call))
    return {
      role: 'tool',
      tool_call_id: call.id,
      content: `Error (INVALID_ARGUMENT): "${call.custom.name}" was called as a custom tool; these are function tools. Call it with JSON arguments.`,
    };
  const content = await runFunctionCall(tools, call.function.name, call.function.arguments, context);
  return { role: 'tool', tool_call_id: call.id, content };
}

/**
 * Runs a function call as OpenAI's APIs send it (a name and JSON-text arguments) and returns the text for the
 * model; bad JSON or an unknown tool becomes an error text that says what to send instead.
 */
export async function runFunctionCall(
  tools: readonly ScratchpadTool[],
  name: string,
  argumentsText: string,
  context: ToolContext,
): Promise<string> {
  const tool = findTool(tools, name);
  if (!tool) return unknownToolText(tools, name);
  let input: unknown;
  try {
    input = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
  } catch (error) {
    return `Error (INVALID_ARGUMENT): The arguments are not valid JSON (${(error as Error).message}). Send a JSON object.`;
  }
  return (await runTool(tool, input, context)).text;
}
