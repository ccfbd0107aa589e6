import type { ScratchpadTool } from '../tool.js';

/**
 * OpenAI and Anthropic accept tool names matching `^[a-zA-Z0-9_-]{1,64}$`; some seed names do not (seed 001's
 * `session.scratchpad`). Adapters send a safe alias and map calls back to the tool.
 */
export function providerToolName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

/** Finds the tool a provider's call names (by alias or exact name). */
export function findTool(tools: readonly ScratchpadTool[], calledName: string): ScratchpadTool | undefined {
  return (
    tools.find((tool) => tool.name === calledName) ??
    tools.find((tool) => providerToolName(tool.name) === calledName)
  );
}

/** The text a model gets when it calls a tool that does not exist. */
export function unknownToolText(tools: readonly ScratchpadTool[], calledName: string): string {
  return `Error (INVALID_ARGUMENT): There is no tool "${calledName}". Available tools: ${tools.map((tool) => providerToolName(tool.name)).join(', ')}.`;
}
