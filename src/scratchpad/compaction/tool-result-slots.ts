/**
 * Where the tool results are in a conversation of any of the three message shapes, found by their structure:
 *
 * - OpenAI chat completions: `{role: 'tool', tool_call_id, content: string | [{type: 'text', text}]}`, its tool
 *   named by the assistant's `tool_calls[].function.name` (or `custom.name`);
 * - Anthropic messages: `{type: 'tool_result', tool_use_id, content?, is_error?}` blocks in a `user` message, named
 *   by the assistant's `tool_use` block (`server_tool_use`, `mcp_tool_use` too);
 * - AI SDK `ModelMessage`: `{type: 'tool-result', toolCallId, toolName, output}` parts in a `tool` message.
 *
 * Anything else (other parts, malformed messages) is not a tool result and is left alone.
 */

/** The message shape a tool result was found in. */
export type MessageShape = 'openai' | 'anthropic' | 'ai-sdk';

/** One tool result of a conversation. */
export interface ToolResultSlot {
  shape: MessageShape;
  messageIndex: number;
  /** Index of the block or part within the message's content; -1 when the whole message is the result (OpenAI). */
  partIndex: number;
  callId: string;
  /** The tool that produced it (`tool` when the call is not in the conversation). */
  tool: string;
  /** The result as text: plain text as it is, any other content (images, JSON, several blocks) as its JSON. */
  text: string;
  /** Whether the result reports an error (Anthropic `is_error`, AI SDK `error-text` / `error-json`). */
  isError: boolean;
}

type Loose = Record<string, unknown>;

const UNKNOWN_TOOL = 'tool';

/** Every tool result of `messages`, oldest first. */
export function findToolResults(messages: readonly unknown[]): ToolResultSlot[] {
  const names = toolNamesByCallId(messages);
  const slots: ToolResultSlot[] = [];
  messages.forEach((message, messageIndex) => {
    if (!isObject(message)) return;
    const { role, content } = message;
    if (role === 'tool' && typeof message.tool_call_id === 'string') {
      const text = openAIText(content);
      if (text === undefined) return;
      const callId = message.tool_call_id;
      slots.push({
        shape: 'openai',
        messageIndex,
        partIndex: -1,
        callId,
        tool: names.get(callId) ?? UNKNOWN_TOOL,
        text,
        isError: false,
      });
      return;
    }
    if (!Array.isArray(content)) return;
    content.forEach((part: unknown, partIndex) => {
      if (!isObject(part)) return;
      if (role === 'user' && part.type === 'tool_result' && typeof part.tool_use_id === 'string') {
        slots.push({
          shape: 'anthropic',
          messageIndex,
          partIndex,
          callId: part.tool_use_id,
          tool: names.get(part.tool_use_id) ?? UNKNOWN_TOOL,
          text: anthropicText(part.content),
          isError: part.is_error === true,
        });
      } else if (role === 'tool' && part.type === 'tool-result' && typeof part.toolCallId === 'string') {
        const output = aiSdkText(part.output);
        if (output === undefined) return;
        slots.push({
          shape: 'ai-sdk',
          messageIndex,
          partIndex,
          callId: part.toolCallId,
          tool:
            typeof part.toolName === 'string' && part.toolName.length > 0
              ? part.toolName
              : (names.get(part.toolCallId) ?? UNKNOWN_TOOL),
          text: output.text,
          isError: output.isError,
        });
      }
    });
  });
  return slots;
}

/**
 * A copy of the message that holds `slot` with that result replaced by `stub` (every other field and part kept,
 * the same objects); the caller's message is not changed.
 */
export function replaceToolResult<Message>(message: Message, slot: ToolResultSlot, stub: string): Message {
  const loose = message as Loose;
  if (slot.shape === 'openai') return { ...loose, content: stub } as Message;
  const content = [...(loose.content as Loose[])];
  const part = content[slot.partIndex] as Loose;
  content[slot.partIndex] =
    slot.shape === 'anthropic'
      ? { ...part, content: stub }
      : { ...part, output: { type: slot.isError ? 'error-text' : 'text', value: stub } };
  return { ...loose, content } as Message;
}

/** Tool names by call id, from the assistant messages of every shape. */
function toolNamesByCallId(messages: readonly unknown[]): Map<string, string> {
  const names = new Map<string, string>();
  const add = (id: unknown, name: unknown) => {
    if (typeof id === 'string' && typeof name === 'string' && name.length > 0) names.set(id, name);
  };
  for (const message of messages) {
    if (!isObject(message) || message.role !== 'assistant') continue;
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls as unknown[]) {
        if (!isObject(call)) continue;
        const named = isObject(call.function)
          ? call.function
          : isObject(call.custom)
            ? call.custom
            : undefined;
        add(call.id, named?.name);
      }
    }
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) {
      if (!isObject(part)) continue;
      if (part.type === 'tool_use' || part.type === 'server_tool_use' || part.type === 'mcp_tool_use') {
        add(part.id, part.name);
      } else if (part.type === 'tool-call') {
        add(part.toolCallId, part.toolName);
      }
    }
  }
  return names;
}

function openAIText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  if (content.every((part) => isObject(part) && part.type === 'text' && typeof part.text === 'string')) {
    return content.map((part) => (part as { text: string }).text).join('');
  }
  return JSON.stringify(content);
}

function anthropicText(content: unknown): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  if (
    Array.isArray(content) &&
    content.length === 1 &&
    isObject(content[0]) &&
    content[0].type === 'text' &&
    typeof content[0].text === 'string'
  ) {
    return content[0].text;
  }
  return JSON.stringify(content);
}

function aiSdkText(output: unknown): { text: string; isError: boolean } | undefined {
  if (!isObject(output)) return undefined;
  switch (output.type) {
    case 'text':
    case 'error-text':
      return typeof output.value === 'string'
        ? { text: output.value, isError: output.type === 'error-text' }
        : undefined;
    case 'json':
    case 'error-json':
      return { text: JSON.stringify(output.value) ?? '', isError: output.type === 'error-json' };
    case 'content': {
      const value = output.value;
      if (!Array.isArray(value)) return undefined;
      const only = value.length === 1 ? value[0] : undefined;
      if (isObject(only) && only.type === 'text' && typeof only.text === 'string') {
        return { text: only.text, isError: false };
      }
      return { text: JSON.stringify(value), isError: false };
    }
    default:
      // `execution-denied` holds no result to store.
      return undefined;
  }
}

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
