/** The `anthropic-memory` preset: Anthropic's memory tool (`memory_20250818`) on the scratchpad store. */
export {
  ANTHROPIC_MEMORY_SYSTEM_PROMPT,
  type AnthropicMemoryPresetOptions,
  anthropicMemoryToolDefinition,
  createAnthropicMemoryPreset,
  createAnthropicMemoryTool,
} from './anthropic-memory-preset.js';
export type {
  MemoryCommand,
  MemoryCreateCommand,
  MemoryDeleteCommand,
  MemoryInsertCommand,
  MemoryRenameCommand,
  MemoryStrReplaceCommand,
  MemoryViewCommand,
} from './memory-commands.js';
export { MemoryDirectory, type MemoryDirectoryOptions } from './memory-directory.js';
export { MemoryToolError } from './memory-errors.js';
export { MemoryLayout } from './memory-layout.js';
export { MEMORY_ROOT } from './memory-path.js';
export { memoryToolParameters } from './memory-tool-parameters.js';
