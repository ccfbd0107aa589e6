import { compactMessages } from '../../dist/index.js';
import { toolOf } from './context-replay.js';

/**
 * Replays one trajectory as an OpenAI chat conversation kept by a host that calls `compactMessages` before every
 * request: each step appends the assistant's call (thought + action) and the tool message, then the history is
 * compacted. `observe(step, context)` gives the tool message's text at its own step (the raw output, or the
 * offloader's observation); compaction decides what later steps see.
 *
 * Returns what was shown at each step (the tool message's text in the request of that step), the characters the
 * context held at each step (task + every thought and action + every tool message as it stands in that request),
 * how many requests were cache-breaking rewrites (a message already sent changed), the message texts of each request
 * (for the prompt-cache cost), and the entry of each step's
 * output when the observation was offloaded.
 */
export async function replayCompacted(trajectory, steps, { session, observe, compact }) {
  let messages = [{ role: 'user', content: trajectory.task }];
  const shown = [];
  const contextChars = [];
  const entries = [];
  const history = [];
  let rewrites = 0;
  let index = 0;
  const requests = [];
  for (const step of steps) {
    const past = Object.freeze({
      task: trajectory.task,
      history: Object.freeze([...history, Object.freeze({ action: step.action, thought: step.thought })]),
    });
    const observed = await observe({
      tool: toolOf(step.action),
      observation: step.observation,
      context: past,
    });
    const id = `call_${index}`;
    messages = [
      ...messages,
      {
        role: 'assistant',
        content: step.thought,
        tool_calls: [
          { id, type: 'function', function: { name: toolOf(step.action), arguments: step.action } },
        ],
      },
      { role: 'tool', tool_call_id: id, content: observed.text },
    ];
    const result = await compactMessages(messages, { session, ...compact });
    if (result.rewritten) rewrites++;
    messages = result.messages;
    shown.push(messages.at(-1).content);
    contextChars.push(charsOf(messages));
    requests.push(messages.map(textOf));
    entries.push(observed.entry ?? null);
    history.push(Object.freeze({ action: step.action, thought: step.thought, observation: observed.text }));
    index++;
  }
  return { shown, contextChars, entries, rewrites, requests };
}

/** A message's text as the cost model bills it: its content and its tool calls' arguments. */
function textOf(message) {
  const content = typeof message.content === 'string' ? message.content : '';
  return content + (message.tool_calls ?? []).map((call) => call.function.arguments).join('');
}

/** Characters of the conversation as the bench counts them: message texts and the actions (tool-call arguments). */
function charsOf(messages) {
  let chars = 0;
  for (const message of messages) {
    chars += typeof message.content === 'string' ? message.content.length : 0;
    for (const call of message.tool_calls ?? []) chars += call.function.arguments.length;
  }
  return chars;
}
