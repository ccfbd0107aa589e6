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

import { type MessageShape, type StoredResultForm, storedResult } from './stored-result.js';

export type { MessageShape } from './stored-result.js';

/** One tool result of a conversation. */
export interface ToolResultSlot {
  shape: MessageShape;
  messageIndex: number;
  /** Index of the block or part within the message's content; -1 when the whole message is the result (OpenAI). */
  partIndex: number;
  callId: string;
  /** The tool that produced it (`tool` when the call is not in the conversation). */
  tool: string;
  /**
   * The result as it is stored: one string or one plain text part as its text, anything else (several parts,
   * images, JSON, extra fields) as the JSON of the whole content (see `stored-result.ts`).
   */
  text: string;
  /** How `text` holds the result, so that the original rebuilds exactly ({@link rebuildMaskedResult}). */
  form: StoredResultForm;
  /** Whether the result reports an error (Anthropic `is_error`, AI SDK `error-text` / `error-json`). */
  isError: boolean;
}

type Loose = Record<string, unknown>;

const UNKNOWN_TOOL = 'tool';
const NOTHING_STORED = Object.freeze({ text: '', form: 'text' as const });

/** Every tool result of `messages`, oldest first. */
export function findToolResults(messages: readonly unknown[]): ToolResultSlot[] {
  const names = toolNamesByCallId(messages);
  const slots: ToolResultSlot[] = [];
  messages.forEach((message, messageIndex) => {
    if (!isObject(message)) return;
    const { role, content } = message;
    if (role === 'tool' && typeof message.tool_call_id === 'string') {
      const stored = storedResult('openai', content);
      if (stored === undefined) return;
      const callId = message.tool_call_id;
      slots.push({
        shape: 'openai',
        messageIndex,
        partIndex: -1,
        callId,
        tool: names.get(callId) ?? UNKNOWN_TOOL,
        ...stored,
        isError: false,
      });
      return;
    }
    if (!Array.isArray(content)) return;
    content.forEach((part: unknown, partIndex) => {
      if (!isObject(part)) return;
      if (role === 'user' && part.type === 'tool_result' && typeof part.tool_use_id === 'string') {
        // No content (or malformed content) is still a result of the window, but one with nothing to store.
        const stored = storedResult('anthropic', part.content) ?? NOTHING_STORED;
        slots.push({
          shape: 'anthropic',
          messageIndex,
          partIndex,
          callId: part.tool_use_id,
          tool: names.get(part.tool_use_id) ?? UNKNOWN_TOOL,
          ...stored,
          isError: part.is_error === true,
        });
      } else if (role === 'tool' && part.type === 'tool-result' && typeof part.toolCallId === 'string') {
        const stored = storedResult('ai-sdk', part.output);
        if (stored === undefined) return;
        const type = (part.output as Loose).type;
        slots.push({
          shape: 'ai-sdk',
          messageIndex,
          partIndex,
          callId: part.toolCallId,
          tool:
            typeof part.toolName === 'string' && part.toolName.length > 0
              ? part.toolName
              : (names.get(part.toolCallId) ?? UNKNOWN_TOOL),
          ...stored,
          isError: type === 'error-text' || type === 'error-json',
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

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
