import type { ChatResponse, Message, Tool } from 'ollama';
import type {
  FinishReason,
  GenerateOptions,
  GenerateResult,
  ModelToolCall,
} from '../model/language-model.js';
import { parseToolArguments } from './tool-arguments.js';
import { toolResultText } from './tool-result-text.js';

/** The `messages` of an Ollama `/api/chat` request: system prompt first, tool results by `tool_name`. */
export function toOllamaMessages(options: Pick<GenerateOptions, 'system' | 'messages'>): Message[] {
  const messages: Message[] = [];
  if (options.system) messages.push({ role: 'system', content: options.system });
  for (const message of options.messages) {
    if (message.role === 'user') messages.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') {
      messages.push({
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      });
    } else messages.push({ role: 'tool', content: toolResultText(message), tool_name: message.toolName });
  }
  return messages;
}

/** The `tools` of an Ollama request; each JSON Schema goes through unchanged. */
export function toOllamaTools(tools: GenerateOptions['tools']): Tool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as NonNullable<Tool['function']['parameters']>,
    },
  }));
}

/**
 * The provider-neutral result of an Ollama chat response. Ollama sends tool-call arguments as objects and
 * (before ids were added to its API) no call ids: a missing id becomes `call_<turn>_<index>`, where `turn` counts
 * the assistant messages so far, so the same history always yields the same ids.
 */
export function fromOllamaResponse(response: ChatResponse, assistantTurn: number): GenerateResult {
  const message: Partial<Message> = response.message ?? {};
  const toolCalls: ModelToolCall[] = (message.tool_calls ?? []).map((call, index) => {
    const withId = call as typeof call & { id?: unknown };
    return {
      id: typeof withId.id === 'string' && withId.id !== '' ? withId.id : `call_${assistantTurn}_${index}`,
      name: call.function?.name ?? '',
      arguments: parseToolArguments(call.function?.arguments),
    };
  });
  return {
    text: message.content ?? '',
    toolCalls,
    finishReason: finishReason(response.done_reason, toolCalls.length > 0),
    usage: { inputTokens: response.prompt_eval_count ?? 0, outputTokens: response.eval_count ?? 0 },
    raw: response,
  };
}

function finishReason(doneReason: string | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls) return 'tool-calls';
  if (doneReason === 'length') return 'length';
  if (doneReason === 'stop' || doneReason === undefined || doneReason === '') return 'stop';
  return 'other';
}
