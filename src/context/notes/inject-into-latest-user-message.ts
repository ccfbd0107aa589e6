import { type InjectNotesOptions, injectNotes } from './inject-notes.js';

/** The shape of a chat message this helper understands: string content, or an array of content parts. */
export interface ChatMessageLike {
  role: string;
  content: unknown;
}

/**
 * Returns a copy of `messages` where only the last `user` message carries the notes block (see {@link injectNotes});
 * every other message is the same object, untouched.
 *
 * Why only the latest: providers cache the longest unchanged prefix of a request. If notes were re-rendered into
 * every user message, each note change would rewrite the whole history and miss the cache from the first message
 * on. Injecting into the newest message, and keeping what older messages were sent with, changes only the tail.
 * Call it once per user turn, when the user's message arrives, and keep the result as the history you send next
 * (calling it again on an already injected message would inject twice).
 *
 * String content gets the block prepended; array content gets it prepended to a leading `{type: 'text'}` part, or
 * a new text part in front when the first part is not text.
 */
export function injectIntoLatestUserMessage<Message extends ChatMessageLike>(
  messages: readonly Message[],
  notes: string,
  options: InjectNotesOptions = {},
): Message[] {
  const copy = [...messages];
  const index = copy.findLastIndex((message) => message.role === 'user');
  const latest = copy[index];
  if (!latest || (!notes && !options.steer)) return copy;
  copy[index] = { ...latest, content: injectContent(latest.content, notes, options) };
  return copy;
}

function injectContent(content: unknown, notes: string, options: InjectNotesOptions): unknown {
  if (typeof content === 'string') return injectNotes(content, notes, options);
  if (!Array.isArray(content)) return content;
  const [first, ...rest] = content as unknown[];
  if (isTextPart(first)) return [{ ...first, text: injectNotes(first.text, notes, options) }, ...rest];
  return [{ type: 'text', text: injectNotes('', notes, options) }, ...content];
}

function isTextPart(part: unknown): part is { type: 'text'; text: string } {
  return (
    typeof part === 'object' &&
    part !== null &&
    (part as { type?: unknown }).type === 'text' &&
    typeof (part as { text?: unknown }).text === 'string'
  );
}
