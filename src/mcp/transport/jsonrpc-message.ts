import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * A parsed JSON value read as a JSON-RPC message exactly as the SDK's `JSONRPCMessageSchema` reads it. The shapes
 * almost every message has (a request or notification whose `params` has no `_meta`, a result response whose
 * `result` has no `_meta`) are recognized by a few property checks, each a shape the schema accepts as it is;
 * anything else, valid or not, goes through the schema. Saves a zod union walk per message on the hot path.
 */
export function readJsonRpcMessage(
  value: unknown,
): { success: true; data: JSONRPCMessage } | ReturnType<typeof JSONRPCMessageSchema.safeParse> {
  if (isCommonMessage(value)) return { success: true, data: value };
  return JSONRPCMessageSchema.safeParse(value);
}

/** The common shapes, each checked against the schema's strict keys and its field types. */
function isCommonMessage(value: unknown): value is JSONRPCMessage {
  if (!isPlainRecord(value) || !Object.hasOwn(value, 'jsonrpc') || value.jsonrpc !== '2.0') return false;
  const has = (key: string) => Object.hasOwn(value, key);
  const keys = Object.keys(value);
  if (has('method')) {
    // A request (with an id) or a notification: no keys but jsonrpc, id, method and params.
    if (typeof value.method !== 'string') return false;
    if (has('id') && !isRequestId(value.id)) return false;
    if (has('params') && !isParamsWithoutMeta(value.params)) return false;
    return keys.every((key) => key === 'jsonrpc' || key === 'id' || key === 'method' || key === 'params');
  }
  // A result response: exactly jsonrpc, id and result.
  if (keys.length !== 3 || !has('id') || !has('result') || !isRequestId(value.id)) return false;
  return isParamsWithoutMeta(value.result);
}

function isRequestId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/** A plain object with no `_meta` (the schemas check only that key) and no own `__proto__` key. */
function isParamsWithoutMeta(value: unknown): boolean {
  return isPlainRecord(value) && !Object.hasOwn(value, '_meta') && !Object.hasOwn(value, '__proto__');
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
