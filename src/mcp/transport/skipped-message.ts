import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** What can be recovered of a message that was too large to read: its request id and method, when visible. */
export interface SkippedMessage {
  id?: RequestId;
  method?: string;
}

const SCALAR = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const LEADING_MEMBER = new RegExp(String.raw`^\s*[{,]\s*"(id|method|jsonrpc)"\s*:\s*${SCALAR}`);
const TRAILING_MEMBER = new RegExp(String.raw`,\s*"(id|method|jsonrpc)"\s*:\s*${SCALAR}\s*$`);

/**
 * Recovers the top-level `id` and `method` of a JSON-RPC message from its first and last bytes: SDKs write them
 * either before `params` (`{"jsonrpc":"2.0","id":7,"method":…`) or after it (`…},"jsonrpc":"2.0","id":7}`), so
 * the scalar members at both ends of the object are read until the first nested value.
 */
export function describeSkippedMessage(head: Buffer, tail: Buffer): SkippedMessage {
  const found: Record<string, string> = {};
  let text = head.toString('utf8');
  for (let match = LEADING_MEMBER.exec(text); match; match = LEADING_MEMBER.exec(text)) {
    found[match[1] as string] ??= match[2] as string;
    text = text.slice(match[0].length);
  }
  text = tail.toString('utf8').replace(/\}\s*$/, '');
  for (let match = TRAILING_MEMBER.exec(text); match; match = TRAILING_MEMBER.exec(text)) {
    found[match[1] as string] ??= match[2] as string;
    text = text.slice(0, match.index);
  }
  const result: SkippedMessage = {};
  const id = parseScalar(found.id);
  if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) result.id = id;
  const method = parseScalar(found.method);
  if (typeof method === 'string') result.method = method;
  return result;
}

function parseScalar(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
