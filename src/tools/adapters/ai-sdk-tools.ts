import type { z } from 'zod';
import type { ScratchpadTool, ToolContext } from '../tool.js';
import { runTool } from '../tool.js';

/**
 * The structural shape of a Vercel AI SDK tool (`tool({ description, inputSchema, execute })`); zod 4 schemas
 * are accepted by the AI SDK as they are, so no dependency on `ai` is needed. A tool set of these is an `ai@6`
 * `ToolSet` (test/sdk-adapters.test.ts passes it to `generateText`).
 */
export interface AISDKTool<Input = unknown> {
  description: string;
  inputSchema: z.ZodType<Input>;
  execute: (input: Input, options?: { abortSignal?: AbortSignal }) => Promise<string>;
}

/**
 * Our tools as an AI SDK tool set (`generateText({ tools: toAISDKTools(tools, context) })`). Each returns the
 * text the model should read, errors included (they say what to try instead).
 */
export function toAISDKTools(
  tools: readonly ScratchpadTool[],
  context: ToolContext,
): Record<string, AISDKTool> {
  const set: Record<string, AISDKTool> = {};
  for (const tool of tools) {
    set[tool.name.replace(/[^a-zA-Z0-9_-]/g, '_')] = {
      description: tool.description,
      inputSchema: tool.parameters,
      execute: async (input, options) => {
        const output = await runTool(
          tool,
          input,
          options?.abortSignal ? { ...context, signal: options.abortSignal } : context,
        );
        return output.text;
      },
    };
  }
  return set;
}
