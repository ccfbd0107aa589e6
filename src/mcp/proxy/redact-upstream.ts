import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { KeepSlot } from '../../core/redaction/map-json-strings.js';
import type { Redactor } from '../../core/redaction/redactor.js';
import { withoutLegacyPrefix } from '../request-handlers.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Anything an upstream sends on its way to the client (a result, a list page, a prompt, a completion, a
 * notification's params, an error's data) with every string redacted, keys included, at any depth: one walk
 * ({@link Redactor.redactValue}) over the whole value, not a field list. The only strings kept are base64
 * payloads where MCP puts media (an image's or audio block's `data`, a resource's `blob`, in tool results,
 * embedded resources, resource reads and prompt messages), and only when they are valid base64: text an upstream
 * puts there is redacted like any other string.
 */
export async function redactUpstream<Value>(value: Value, redactor: Redactor): Promise<Value> {
  if (!redactor.enabled) return value;
  return redactor.redactValue(value, binarySlots(value));
}

/** The base64 payload slots of an MCP reply, found by their place in it (not by a key's name anywhere). */
function binarySlots(reply: unknown): KeepSlot {
  const holders = new Set<object>();
  const block = (item: unknown) => {
    if (!isRecord(item)) return;
    if (item.type === 'image' || item.type === 'audio') holders.add(item);
    if (item.type === 'resource' && isRecord(item.resource)) holders.add(item.resource);
  };
  if (isRecord(reply)) {
    if (Array.isArray(reply.content)) for (const item of reply.content) block(item);
    if (Array.isArray(reply.contents))
      for (const item of reply.contents) if (isRecord(item)) holders.add(item);
    if (Array.isArray(reply.messages))
      for (const message of reply.messages) if (isRecord(message)) block(message.content);
  }
  return (holder, key) => {
    if (!holders.has(holder)) return false;
    const value = holder[key];
    const slot = key === 'blob' || (key === 'data' && (holder.type === 'image' || holder.type === 'audio'));
    return slot && typeof value === 'string' && BASE64.test(value);
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An upstream's protocol error with its message (without the v1 SDK's "MCP error N: ") and data redacted. */
export async function redactedError(error: McpError, redactor: Redactor): Promise<McpError> {
  const message = await redactor.redact(withoutLegacyPrefix(error.message));
  return new McpError(error.code, message, await redactUpstream(error.data, redactor));
}
