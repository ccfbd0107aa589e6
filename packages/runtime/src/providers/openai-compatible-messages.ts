import type {
  ChatCompletion,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  FinishReason,
  GenerateOptions,
  GenerateResult,
  ModelToolCall,
} from '../model/language-model.js';
import { parseToolArguments, serializeToolArguments } from './tool-arguments.js';
import { toolResultText } from './tool-result-text.js';

/** The `messages` of a chat-completions request: a system message first, tool results by `tool_call_id`. */
export function toOpenAIMessages(
  options: Pick<GenerateOptions, 'system' | 'messages'>,
): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (options.system) messages.push({ role: 'system', content: options.system });
  for (const message of options.messages) {
    if (message.role === 'user') messages.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') {
      const toolCalls = message.toolCalls ?? [];
      messages.push({
        role: 'assistant',
        // OpenAI's own convention for a reply that only calls tools.
        content: message.content === '' && toolCalls.length > 0 ? null : message.content,
        ...(toolCalls.length > 0
          ? {
              tool_calls: toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: serializeToolArguments(call.arguments) },
              })),
            }
          : {}),
      });
    } else
      messages.push({ role: 'tool', tool_call_id: message.toolCallId, content: toolResultText(message) });
  }
  return messages;
}

/** The `tools` of a chat-completions request, as function tools; each JSON Schema goes through unchanged. */
export function toOpenAITools(tools: GenerateOptions['tools']): ChatCompletionFunctionTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/**
 * The provider-neutral result of a chat completion (first choice). Arguments arrive as JSON strings; one that
 * does not parse becomes a call whose arguments carry the error (see `invalidToolArguments`).
 */
export function fromOpenAIResponse(response: ChatCompletion): GenerateResult {
  const choice = response.choices?.[0];
  const message = choice?.message;
  const toolCalls: ModelToolCall[] = [];
  for (const call of message?.tool_calls ?? []) {
    if (call.type === 'function') {
      toolCalls.push({
        id: call.id,
        name: call.function.name,
        arguments: parseToolArguments(call.function.arguments),
      });
    } else if (call.type === 'custom') {
      toolCalls.push({
        id: call.id,
        name: call.custom.name,
        arguments: parseToolArguments(call.custom.input),
      });
    }
  }
  return {
    text: message?.content ?? message?.refusal ?? '',
    toolCalls,
    finishReason: finishReason(choice?.finish_reason, toolCalls.length > 0),
    usage: {
      inputTokens: response.usage?.prompt_tokens ?? 0,
      outputTokens: response.usage?.completion_tokens ?? 0,
    },
    raw: response,
  };
}

function finishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (reason === 'tool_calls' || reason === 'function_call' || (hasToolCalls && reason === 'stop'))
    return 'tool-calls';
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  return hasToolCalls ? 'tool-calls' : 'other';
}
