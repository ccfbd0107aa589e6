import type { CountTokens } from '../tokens/estimate-tokens.js';

/** Counts per message object and counter: an unchanged message is not counted again on the next call. */
const cache = new WeakMap<object, { counter: CountTokens; tokens: number }>();

/**
 * Tokens of a conversation: the sum over messages of the counter applied to each message's JSON (string messages
 * as they are). An approximation of what a provider bills (it adds a few tokens of framing per message), the same
 * on every shape.
 */
export function conversationTokens(messages: readonly unknown[], count: CountTokens): number {
  let total = 0;
  for (const message of messages) total += messageTokens(message, count);
  return total;
}

function messageTokens(message: unknown, count: CountTokens): number {
  if (typeof message !== 'object' || message === null) return count(String(message));
  const known = cache.get(message);
  if (known?.counter === count) return known.tokens;
  const tokens = count(JSON.stringify(message) ?? '');
  cache.set(message, { counter: count, tokens });
  return tokens;
}
