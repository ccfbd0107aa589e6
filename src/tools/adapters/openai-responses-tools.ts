import type { JsonSchema, ScratchpadTool, ToolContext } from '../tool.js';
import { toolJsonSchema } from '../tool.js';
import { runFunctionCall } from './openai-tools.js';
import { providerToolName } from './provider-names.js';

/** An OpenAI Responses API function tool (`client.responses.create({ tools })`). */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  /** `false`: the schemas use optional properties, which strict mode rejects. */
  strict: false;
}

/** A `function_call` output item of a response (`arguments` is a JSON string). */
export interface OpenAIResponsesFunctionCall {
  type?: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

/** The `function_call_output` input item to send back in the next request. */
export interface OpenAIResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** Our tools as Responses API function tools (names aliased when OpenAI would reject them). */
export function toOpenAIResponsesTools(tools: readonly ScratchpadTool[]): OpenAIResponsesFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: providerToolName(tool.name),
    description: tool.description,
    parameters: toolJsonSchema(tool),
    strict: false,
  }));
}

/**
 * Runs one `function_call` item and returns its `function_call_output`; bad JSON or an unknown tool becomes an
 * error text the model can act on.
 */
export async function runOpenAIResponsesCall(
  tools: readonly ScratchpadTool[],
  call: OpenAIResponsesFunctionCall,
  context: ToolContext,
): Promise<OpenAIResponsesFunctionCallOutput> {
  return {
    type: 'function_call_output',
    call_id: call.call_id,
    output: await runFunctionCall(tools, call.name, call.arguments, context),
  };
}
