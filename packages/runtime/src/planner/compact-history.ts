import { compactMessages } from 'llm-scratchpad';
import type { ModelMessage } from '../model/language-model.js';
import type { Attempt, TurnContext } from './turn-context.js';
import { DEFAULT_SCRATCHPAD_TTL_SECONDS } from './turn-options.js';

/**
 * Masks the older tool results of a local attempt's conversation with `compactMessages`' default policy (the newest
 * result whole; a rewrite only once the tokens it clears, times the requests still expected (so far + 5), reach 12.5
 * times what stays: `breakEven`), storing each whole in the turn's session first, with the lifetime of the turn's offloaded entries.
 * Returns the conversation to send (the caller keeps it, so masked messages stay byte-identical from then on). Once a
 * result is masked the read tool is offered, as it is after an offload.
 *
 * Only the default scratchpad style: the stub names `scratchpad_read` with `"lines"` / `"regex"` parts, which seed
 * 000's read tool (style `metnos`) does not take; that style's conversation is returned as it is.
 */
export async function compactHistory(
  turn: TurnContext,
  attempt: Attempt,
  messages: readonly ModelMessage[],
): Promise<ModelMessage[]> {
  if ((turn.options.scratchpadStyle ?? 'default') !== 'default') return [...messages];
  const wire = messages.map(toOpenAIShape);
  const result = await compactMessages(wire, {
    session: turn.session,
    keepRecent: 1,
    readTool: turn.readTool.name,
    ttlMs: (turn.options.scratchpadTtlSeconds ?? DEFAULT_SCRATCHPAD_TTL_SECONDS) * 1000,
    turn: turn.turnId,
  });
  if (!result.rewritten) return [...messages];
  attempt.offloaded = true;
  return messages.map((message, index) => {
    const compacted = result.messages[index] as { content?: unknown };
    return message.role === 'tool' && compacted.content !== message.content
      ? { ...message, content: String(compacted.content) }
      : message;
  });
}

/** The OpenAI chat completions shape `compactMessages` reads (tool results keep their exact text). */
function toOpenAIShape(message: ModelMessage): unknown {
  if (message.role === 'tool')
    return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  if (message.role === 'assistant')
    return {
      role: 'assistant',
      content: message.content,
      tool_calls: (message.toolCalls ?? []).map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.arguments ?? null) },
      })),
    };
  return { role: 'user', content: message.content };
}
