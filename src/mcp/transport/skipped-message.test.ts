import { describe, expect, it } from 'vitest';
import { describeSkippedMessage } from './skipped-message.js';

const ends = (text: string) => [Buffer.from(text.slice(0, 200)), Buffer.from(text.slice(-200))] as const;

describe('describeSkippedMessage', () => {
  it('finds the id and method written after params (the official SDK) or before them', () => {
    const big = 'x'.repeat(1000);
    expect(
      describeSkippedMessage(
        ...ends(`{"method":"tools/call","params":{"a":"${big}"},"jsonrpc":"2.0","id":7}`),
      ),
    ).toEqual({ id: 7, method: 'tools/call' });
    expect(
      describeSkippedMessage(
        ...ends(`{"jsonrpc":"2.0","id":"r-1","method":"tools/call","params":{"a":"${big}"}}`),
      ),
    ).toEqual({ id: 'r-1', method: 'tools/call' });
    expect(
      describeSkippedMessage(...ends(`{"jsonrpc":"2.0","method":"notifications/x","params":{"a":"${big}"}}`)),
    ).toEqual({ method: 'notifications/x' });
  });

  it('does not take a nested id for the request id', () => {
    const big = 'x'.repeat(1000);
    expect(describeSkippedMessage(...ends(`{"method":"m","params":{"a":"${big}","id":9}}`))).toEqual({
      method: 'm',
    });
    expect(describeSkippedMessage(...ends(`{"params":{"a":"${big}\\",\\"id\\":5"}}`))).toEqual({});
    expect(describeSkippedMessage(Buffer.from('garbage'), Buffer.from('garbage'))).toEqual({});
  });
});
