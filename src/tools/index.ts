/**
 * LLM tools over the scratchpad: the default tool set, the seed presets, adapters for OpenAI, Anthropic and the
 * AI SDK, and `wrapTools` to offload large results of your own tools. Import from `agent-scratchpad/tools`.
 */
export * from './adapters/ai-sdk-tools.js';
export * from './adapters/anthropic-tools.js';
export * from './adapters/openai-responses-tools.js';
export * from './adapters/openai-tools.js';
export { providerToolName } from './adapters/provider-names.js';
export { availableTools } from './available-tools.js';
export {
  createDefaultPreset,
  DEFAULT_SYSTEM_PROMPT,
  type DefaultPresetOptions,
} from './default/default-preset.js';
export { DEFAULT_READ_LIMIT, parseLines } from './default/read-tool.js';
export { PRESET_NAMES, type Preset, type PresetName } from './preset.js';
export * from './presets/anthropic-memory/index.js';
export { createPreset } from './presets/create-preset.js';
export { createHarnessPreset, HARNESS_SYSTEM_PROMPT } from './presets/harness/harness-preset.js';
export { createMetnosPreset, METNOS_SYSTEM_PROMPT } from './presets/metnos/metnos-preset.js';
export { METNOS_READ_DESCRIPTION, METNOS_READ_SCHEMA } from './presets/metnos/metnos-read-tool.js';
export { createNamedPreset, NAMED_SYSTEM_PROMPT } from './presets/named/named-preset.js';
export * from './presets/openclaw/index.js';
export {
  defineTool,
  errorOutput,
  type JsonSchema,
  runTool,
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
