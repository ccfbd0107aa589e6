import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { readJsonRpcMessage } from './jsonrpc-message.js';

// Each line is read as JSON gives it; the quick path must agree with the SDK's schema on every one.
const lines = [
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}',
  '{"jsonrpc":"2.0","id":"a","method":"ping"}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}',
  '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}',
  '{"jsonrpc":"2.0","id":1,"result":{}}',
  '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"progressToken":"t"}}}',
  '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"progressToken":1.5}}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":[]}}}',
  '{"jsonrpc":"2.0","id":1.5,"result":{}}',
  '{"jsonrpc":"2.0","id":9007199254740993,"result":{}}',
  '{"jsonrpc":"2.0","id":null,"result":{}}',
  '{"jsonrpc":"2.0","id":1,"result":[]}',
  '{"jsonrpc":"2.0","id":1,"result":null}',
  '{"jsonrpc":"2.0","id":1,"result":{},"extra":1}',
  '{"jsonrpc":"2.0","id":1,"method":"x","extra":1}',
  '{"jsonrpc":"2.0","id":1.5,"method":"x"}',
  '{"jsonrpc":"2.0","method":"x","params":[]}',
  '{"jsonrpc":"2.0","method":5}',
  '{"jsonrpc":"1.0","id":1,"result":{}}',
  '{"id":1,"result":{}}',
  '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"no"}}',
  '{"jsonrpc":"2.0","error":{"code":1.5,"message":"no"}}',
  '{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"x":1}}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{"params":{}}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":[]}}',
  '[]',
  'null',
  '"text"',
];

describe('readJsonRpcMessage', () => {
  it.each(lines)('reads %s as the SDK schema does', (line) => {
    const value = JSON.parse(line) as unknown;
    const expected = JSONRPCMessageSchema.safeParse(value);
    const read = readJsonRpcMessage(value);
    expect(read.success).toBe(expected.success);
    if (read.success && expected.success) expect(read.data).toEqual(expected.data);
  });
});
