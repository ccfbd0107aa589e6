import type { Preset } from '../tools/preset.js';

/**
 * The preset's guidance as MCP `instructions`: without the lines about `{{stepN.field}}`, which only an agent
 * turn can resolve (an MCP server has no steps); `{{scratchpad:NAME}}` does resolve in its tool calls.
 */
export function serverInstructions(preset: Preset): string | undefined {
  const text = preset.systemPrompt
    .split('\n')
    .filter((line) => !line.includes('{{step'))
    .join('\n')
    .trim();
  return text.length > 0 ? text : undefined;
}
