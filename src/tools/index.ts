/**
 * LLM tools over the scratchpad: the default tool set, the seed presets, adapters for OpenAI, Anthropic and the
 * AI SDK, and `wrapTools` to offload large results of your own tools. Import from `llm-scratchpad/tools`.
 * Every export below is deliberate (test/public-api.test.ts pins the list). Session-notes helpers
 * (`injectNotes`, `injectIntoLatestUserMessage`, …) are exported once, from the root entry point.
 */
export { type AISDKTool, toAISDKTools } from './adapters/ai-sdk-tools.js';
export type {
  AnthropicCustomTool,
  AnthropicInputSchema,
  AnthropicNativeTool,
  AnthropicTool,
} from './adapters/anthropic-shapes.js';
export {
  type AnthropicToolResult,
  type AnthropicToolUse,
  runAnthropicToolUse,
  toAnthropicTools,
} from './adapters/anthropic-tools.js';
export {
  type OpenAIResponsesFunctionCall,
  type OpenAIResponsesFunctionCallOutput,
  type OpenAIResponsesFunctionTool,
  runOpenAIResponsesCall,
  toOpenAIResponsesTools,
} from './adapters/openai-responses-tools.js';
export {
  type OpenAIFunctionTool,
  type OpenAIToolCall,
  type OpenAIToolMessage,
  runOpenAIToolCall,
  toOpenAITools,
} from './adapters/openai-tools.js';
export { providerToolName } from './adapters/provider-names.js';
export { availableTools } from './available-tools.js';
export { DEFAULT_MAX_ANSWER_BYTES } from './default/capped-read.js';
export {
  createDefaultPreset,
  DEFAULT_SYSTEM_PROMPT,
  type DefaultPresetOptions,
} from './default/default-preset.js';
/**
 * The read tools alone, for a harness that builds its own tool list (the agent runtime gives its planner one):
 * `scratchpad_read` as the `default` preset makes it, with the preset's answer bound, and seed 001's `metnos_read`.
 */
export { createReadTool, DEFAULT_READ_LIMIT, parseLines, type ReadToolOptions } from './default/read-tool.js';
export { PRESET_NAMES, type Preset, type PresetName } from './preset.js';
export {
  ANTHROPIC_MEMORY_SYSTEM_PROMPT,
  type AnthropicMemoryPresetOptions,
  anthropicMemoryToolDefinition,
  createAnthropicMemoryPreset,
  createAnthropicMemoryTool,
  MEMORY_ROOT,
  type MemoryCommand,
  MemoryDirectory,
  type MemoryDirectoryOptions,
  MemoryLayout,
  MemoryToolError,
  memoryToolParameters,
} from './presets/anthropic-memory/index.js';
export { createPreset } from './presets/create-preset.js';
export { createHarnessPreset, HARNESS_SYSTEM_PROMPT } from './presets/harness/harness-preset.js';
export { createMetnosPreset, METNOS_SYSTEM_PROMPT } from './presets/metnos/metnos-preset.js';
export {
  createMetnosReadTool,
  METNOS_READ_DESCRIPTION,
  METNOS_READ_SCHEMA,
} from './presets/metnos/metnos-read-tool.js';
export { createNamedPreset, NAMED_SYSTEM_PROMPT } from './presets/named/named-preset.js';
export {
  createOpenclawPreset,
  createSessionScratchpadTool,
  type OpenclawPreset,
  type OpenclawPresetOptions,
  openclawSystemPrompt,
  SESSION_SCRATCHPAD_DESCRIPTION,
  SESSION_SCRATCHPAD_INPUT_SCHEMA,
  SESSION_SCRATCHPAD_TOOL_NAME,
  type SessionScratchpadInput,
} from './presets/openclaw/index.js';
export {
  defineTool,
  errorOutput,
  type JsonSchema,
  runTool,
  runToolUnredacted,
  type ScratchpadTool,
  type ToolContext,
  type ToolOutput,
  toolJsonSchema,
} from './tool.js';
export { SCRATCHPAD_TOOL_NAMES, TOOL_NAMES } from './tool-names.js';
export {
  type HostTool,
  SCRATCHPAD_PARAMETER,
  type WrappedCallOptions,
  type WrappedResult,
  type WrappedTool,
  type WrapToolsOptions,
  wrapTools,
} from './wrap-tools.js';
