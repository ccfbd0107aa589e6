/**
 * The Anthropic Messages API tool shapes the adapters emit, in this package's own types so that importing
 * `llm-scratchpad/tools` does not load `@anthropic-ai/sdk`'s declarations. Each is assignable to the SDK's
 * `Anthropic.Messages.ToolUnion` (test/provider-shapes.test.ts checks it against the SDK).
 */

/** The JSON Schema of a custom tool's input: Anthropic takes object schemas only. */
export interface AnthropicInputSchema {
  type: 'object';
  properties?: unknown;
  required?: string[];
  [keyword: string]: unknown;
}

/** A custom tool: the model calls it by `name` with input matching `input_schema`. */
export interface AnthropicCustomTool {
  name: string;
  description: string;
  input_schema: AnthropicInputSchema;
}

/**
 * A native client tool, defined by Anthropic and executed by the caller: memory, bash or the text editor. A
 * scratchpad tool that implements one sends its definition instead of a custom tool
 * (`ScratchpadTool.anthropicDefinition`).
 */
export type AnthropicNativeTool =
  | { type: 'memory_20250818'; name: 'memory' }
  | { type: 'bash_20250124'; name: 'bash' }
  | { type: 'text_editor_20250124'; name: 'str_replace_editor' }
  | { type: 'text_editor_20250429' | 'text_editor_20250728'; name: 'str_replace_based_edit_tool' };

/**
 * An Anthropic Messages API tool, as `client.messages.create({ tools })` takes it: a custom tool, or a native one
 * such as `memory_20250818`.
 */
export type AnthropicTool = AnthropicCustomTool | AnthropicNativeTool;
