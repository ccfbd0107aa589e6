// The adapters' own shape types against the provider SDKs' types: `llm-scratchpad/tools` describes what it emits
// and accepts without importing any SDK (so a user's type-check reads none of their declarations), and these
// checks, run by `npm run typecheck` (strict), prove each shape fits where the SDK expects its own type and that
// what the SDK returns is accepted where the adapters take it.
import type Anthropic from '@anthropic-ai/sdk';
import type { ToolSet } from 'ai';
import type OpenAI from 'openai';
import { describe, expectTypeOf, it } from 'vitest';
import type { AISDKTool } from '../src/tools/adapters/ai-sdk-tools.js';
import type {
  AnthropicCustomTool,
  AnthropicInputSchema,
  AnthropicNativeTool,
  AnthropicTool,
} from '../src/tools/adapters/anthropic-shapes.js';
import type { AnthropicToolResult, AnthropicToolUse } from '../src/tools/adapters/anthropic-tools.js';
import type {
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesFunctionTool,
} from '../src/tools/adapters/openai-responses-tools.js';
import type {
  OpenAIFunctionTool,
  OpenAIToolCall,
  OpenAIToolMessage,
} from '../src/tools/adapters/openai-tools.js';
import { anthropicMemoryToolDefinition } from '../src/tools/presets/anthropic-memory/anthropic-memory-preset.js';

describe('adapter shapes fit the provider SDKs', () => {
  it('Anthropic: our tools go into messages.create, its tool_use blocks and native tool types come back in', () => {
    expectTypeOf<AnthropicTool>().toExtend<Anthropic.Messages.ToolUnion>();
    expectTypeOf<AnthropicCustomTool>().toExtend<Anthropic.Messages.Tool>();
    expectTypeOf<AnthropicInputSchema>().toExtend<Anthropic.Messages.Tool.InputSchema>();
    expectTypeOf<AnthropicToolResult>().toExtend<Anthropic.Messages.ToolResultBlockParam>();
    expectTypeOf<Anthropic.Messages.ToolUseBlock>().toExtend<AnthropicToolUse>();
    // Every native client tool the SDK defines that a scratchpad tool can implement is an AnthropicNativeTool.
    expectTypeOf<Anthropic.Messages.MemoryTool20250818>().toExtend<AnthropicNativeTool>();
    expectTypeOf<Anthropic.Messages.ToolBash20250124>().toExtend<AnthropicNativeTool>();
    expectTypeOf<Anthropic.Messages.ToolTextEditor20250124>().toExtend<AnthropicNativeTool>();
    expectTypeOf<Anthropic.Messages.ToolTextEditor20250429>().toExtend<AnthropicNativeTool>();
    expectTypeOf<Anthropic.Messages.ToolTextEditor20250728>().toExtend<AnthropicNativeTool>();
    expectTypeOf(anthropicMemoryToolDefinition).toExtend<Anthropic.Messages.MemoryTool20250818>();
  });

  it('OpenAI Chat Completions: our function tools and tool messages go in, its tool calls come back in', () => {
    expectTypeOf<OpenAIFunctionTool>().toExtend<OpenAI.Chat.Completions.ChatCompletionTool>();
    expectTypeOf<OpenAIToolMessage>().toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam>();
    expectTypeOf<OpenAI.Chat.Completions.ChatCompletionMessageToolCall>().toExtend<OpenAIToolCall>();
  });

  it('OpenAI Responses: our function tools and call outputs go in, its function calls come back in', () => {
    expectTypeOf<OpenAIResponsesFunctionTool>().toExtend<OpenAI.Responses.Tool>();
    expectTypeOf<OpenAIResponsesFunctionCallOutput>().toExtend<OpenAI.Responses.ResponseInputItem>();
    expectTypeOf<OpenAI.Responses.ResponseFunctionToolCall>().toExtend<OpenAIResponsesFunctionCall>();
  });

  it('AI SDK: a set of our tools is a ToolSet for generateText', () => {
    expectTypeOf<Record<string, AISDKTool>>().toExtend<ToolSet>();
  });
});
