import type {
  ContentBlockParam,
  Message,
  MessageParam,
  StopReason,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type {
  FinishReason,
  GenerateOptions,
  GenerateResult,
  ModelToolCall,
} from '../model/language-model.js';
import { parseToolArguments } from './tool-arguments.js';

/**
 * The `messages` of a Messages API request. The system prompt travels separately; assistant tool calls become
 * `tool_use` blocks; consecutive tool results go in one user message as `tool_result` blocks (with `is_error`),
 * and a user message that follows them joins that message as a text block after them, as the API requires.
 */
export function toAnthropicMessages(messages: GenerateOptions['messages']): MessageParam[] {
  const result: MessageParam[] = [];
  let toolResults: ContentBlockParam[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const block: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content: message.content,
        ...(message.isError ? { is_error: true } : {}),
      };
      if (toolResults) toolResults.push(block);
      else {
        toolResults = [block];
        result.push({ role: 'user', content: toolResults });
      }
    } else if (message.role === 'user') {
      if (toolResults) toolResults.push({ type: 'text', text: message.content });
      else result.push({ role: 'user', content: message.content });
      toolResults = undefined;
    } else {
      toolResults = undefined;
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) {
        result.push({ role: 'assistant', content: message.content });
        continue;
      }
      const content: ContentBlockParam[] =
        message.content === '' ? [] : [{ type: 'text', text: message.content }];
      for (const call of calls)
        content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
      result.push({ role: 'assistant', content });
    }
  }
  return result;
}

/** The `tools` of a Messages API request; each JSON Schema becomes `input_schema` unchanged. */
export function toAnthropicTools(tools: GenerateOptions['tools']): Tool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters as Tool['input_schema'],
  }));
}

/** The provider-neutral result of a Messages API response: text blocks joined, `tool_use` blocks as calls. */
export function fromAnthropicResponse(response: Message): GenerateResult {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  for (const block of response.content ?? []) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, name: block.name, arguments: parseToolArguments(block.input) });
    }
  }
  const usage = response.usage;
  return {
    text,
    toolCalls,
    finishReason: finishReason(response.stop_reason, toolCalls.length > 0),
    usage: {
      // Cached prompt tokens are reported apart from input_tokens; the prompt is their sum.
      inputTokens:
        (usage?.input_tokens ?? 0) +
        (usage?.cache_creation_input_tokens ?? 0) +
        (usage?.cache_read_input_tokens ?? 0),
      outputTokens: usage?.output_tokens ?? 0,
    },
    raw: response,
  };
}

function finishReason(reason: StopReason | null | undefined, hasToolCalls: boolean): FinishReason {
  if (reason === 'tool_use') return 'tool-calls';
  if (reason === 'end_turn' || reason === 'stop_sequence') return hasToolCalls ? 'tool-calls' : 'stop';
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  return hasToolCalls ? 'tool-calls' : 'other';
}
